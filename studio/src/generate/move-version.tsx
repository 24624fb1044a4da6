// Moving a source to another schema version: first what the move changes for the clients of its
// runtime API (getSourceApiChanges, breaking changes first), then the move itself, which regenerates.
import { useEffect, useState } from 'preact/hooks';
import { errorText, type ManagementClient, type Project, type Source, type SourceApiChanges as ApiChanges } from '../api.ts';
import { ErrorNote, SelectField, useAnnounce } from '../ui.tsx';
import type { VersionOption } from './schema-versions.ts';

/** Changes listed before "show all". */
const SHOWN = 12;

export function MoveVersion({ api, project, source, versions, onMoved }: { api: ManagementClient; project: Project; source: Source; versions: VersionOption[]; onMoved: () => void }) {
  const announce = useAnnounce();
  const others = versions.filter((version) => version.value !== source.schemaVersionId);
  const [target, setTarget] = useState(others[0]?.value ?? '');
  const [changes, setChanges] = useState<ApiChanges>();
  const [showAll, setShowAll] = useState(false);
  const [busy, setBusy] = useState(false);
  const [error, setError] = useState<string>();
  // A new target or source: its changes are checked again before it can be moved.
  useEffect(() => setTarget((current) => (others.some((version) => version.value === current) ? current : (others[0]?.value ?? ''))), [source.id, source.schemaVersionId, versions]);
  useEffect(() => {
    setChanges(undefined);
    setShowAll(false);
    setError(undefined);
  }, [target, source.id, source.schemaVersionId]);
  if (others.length === 0) return null;
  const label = (id: string) => versions.find((version) => version.value === id)?.label ?? id;

  const check = async () => {
    setBusy(true);
    setError(undefined);
    const { data, error: failure, response } = await api.GET('/public/v1/projects/{projectId}/sources/{sourceId}/api-changes', {
      params: { path: { projectId: project.id, sourceId: source.id }, query: { to: target } },
    });
    setBusy(false);
    if (failure) return setError(errorText(failure, response));
    setChanges(data);
    announce(data.breaking ? `${plural(data.counts.breaking, 'breaking change')} for the runtime API's clients` : 'Nothing breaks for the runtime API\u2019s clients');
  };

  const move = async () => {
    setBusy(true);
    setError(undefined);
    const { error: failure, response } = await api.PATCH('/public/v1/projects/{projectId}/sources/{sourceId}', {
      params: { path: { projectId: project.id, sourceId: source.id } },
      body: { schemaVersionId: target },
    });
    setBusy(false);
    if (failure) return setError(errorText(failure, response));
    announce(`${source.name} moved to ${label(target)}: generating`);
    onMoved();
  };

  const listed = changes ? changes.changes.filter((change) => change.type !== 'annotation') : [];
  // Operations read as the table's own paths (`GET /users`), without the runtime base path.
  const runtimeBase = `/runtime/${source.id}`;
  const operationOf = (operation = '') => operation.replace(` ${runtimeBase}/`, ' /').replace(new RegExp(`^${runtimeBase}/`), '/');
  return (
    <section class="move-version" aria-labelledby="move-version-heading">
      <h3 id="move-version-heading">Schema version</h3>
      <p>
        Bound to <strong>{label(source.schemaVersionId)}</strong>.
      </p>
      <div class="row">
        <SelectField label="Move to" value={target} options={others} onChange={setTarget} />
        <button type="button" onClick={() => void check()} disabled={busy || !target}>
          Check changes
        </button>
      </div>
      {changes && (
        <div class="api-changes" data-testid="api-changes" data-breaking={String(changes.breaking)}>
          <p data-testid="api-changes-summary">
            {changes.breaking ? `${plural(changes.counts.breaking, 'breaking change')}` : 'Nothing breaks'} for the runtime API's clients
            {changes.counts.nonBreaking ? `, ${plural(changes.counts.nonBreaking, 'other change')}` : ''}.
          </p>
          {listed.length > 0 && (
            <ul>
              {(showAll ? listed : listed.slice(0, SHOWN)).map((change) => (
                <li key={`${change.operation}${change.location}`} class={change.type} data-testid="api-change" data-type={change.type}>
                  <span class="change-type">{change.type}</span> <code>{operationOf(change.operation)}</code> {change.side !== 'operation' ? `${change.side}: ` : ''}
                  {change.description}
                </li>
              ))}
            </ul>
          )}
          {listed.length > SHOWN && !showAll && (
            <button type="button" class="link" onClick={() => setShowAll(true)}>
              Show all {listed.length}
            </button>
          )}
          <button type="button" class={changes.breaking ? 'danger' : 'primary'} onClick={() => void move()} disabled={busy}>
            {changes.breaking ? `Move to ${label(target)} anyway and regenerate` : `Move to ${label(target)} and regenerate`}
          </button>
        </div>
      )}
      <ErrorNote message={error} />
    </section>
  );
}

function plural(count: number, noun: string): string {
  return `${count} ${noun}${count === 1 ? '' : 's'}`;
}
