// Generate: create a source from a schema version, pick a source, watch its newest generation live,
// regenerate it (with a new seed or the same one), and move it to another schema version.
import { useEffect, useState } from 'preact/hooks';
import { errorText, SOURCE_KINDS, type ManagementClient, type Project, type Source } from '../api.ts';
import { ErrorNote, SelectField, TextField, useAnnounce } from '../ui.tsx';
import { JobMonitor } from './job-monitor.tsx';
import { MoveVersion } from './move-version.tsx';
import { useVersionOptions, type VersionOption } from './schema-versions.ts';

export interface SourceViewProps {
  api: ManagementClient;
  project: Project;
  sourceId: string;
  onSource: (sourceId: string) => void;
}

/** The project's sources, and the one selected (the first when none is). */
export function useSources({ api, project, sourceId, onSource }: SourceViewProps) {
  const [sources, setSources] = useState<Source[]>();
  const [error, setError] = useState<string>();
  const reload = async (select?: string) => {
    const {
      data,
      error: failure,
      response,
    } = await api.GET('/public/v1/projects/{projectId}/sources', { params: { path: { projectId: project.id }, query: { limit: 1000 } } });
    if (failure) return setError(errorText(failure, response));
    setSources(data);
    const chosen = select ?? (data.some((source) => source.id === sourceId) ? sourceId : (data[0]?.id ?? ''));
    if (chosen !== sourceId) onSource(chosen);
  };
  useEffect(() => void reload(), [project.id]);
  const source = sources?.find((candidate) => candidate.id === sourceId);
  return { sources, source, error, reload };
}

export function SourcePicker({ sources, sourceId, onSource }: { sources: Source[] | undefined; sourceId: string; onSource: (id: string) => void }) {
  if (!sources?.length) return null;
  return (
    <div class="row">
      <SelectField
        label="Source"
        value={sourceId}
        options={sources.map((source) => ({ value: source.id, label: `${source.name} (${source.kind})` }))}
        onChange={onSource}
      />
    </div>
  );
}

export function GenerateView(props: SourceViewProps) {
  const { api, project, sourceId, onSource } = props;
  const announce = useAnnounce();
  const { sources, source, error, reload } = useSources(props);
  const { versions, error: versionsError } = useVersionOptions(api, project);
  const [jobId, setJobId] = useState<string>();
  const [seed, setSeed] = useState('');
  const [actionError, setActionError] = useState<string>();
  /** Bumped when a move queued a job: the newest job is fetched again. */
  const [moves, setMoves] = useState(0);

  // The newest job of the selected source.
  useEffect(() => {
    setJobId(undefined);
    if (!sourceId) return;
    void api
      .GET('/public/v1/projects/{projectId}/sources/{sourceId}/generation-jobs', { params: { path: { projectId: project.id, sourceId }, query: { limit: 1 } } })
      .then(({ data }) => setJobId(data?.[0]?.id));
  }, [sourceId, moves]);
  useEffect(() => setSeed(source?.seed ?? ''), [source?.id]);

  const regenerate = async (event: Event) => {
    event.preventDefault();
    setActionError(undefined);
    const {
      data,
      error: failure,
      response,
    } = await api.POST('/public/v1/projects/{projectId}/sources/{sourceId}/regenerate', {
      params: { path: { projectId: project.id, sourceId } },
      body: seed.trim() ? { seed: seed.trim() } : {},
    });
    if (failure) return setActionError(errorText(failure, response));
    announce(`Regeneration queued with seed ${data.seed}`);
    setJobId(data.id);
  };

  return (
    <div class="generate">
      <CreateSource
        {...props}
        versions={versions}
        versionsError={versionsError}
        onCreated={async (created) => {
          await reload(created.id);
          onSource(created.id);
        }}
      />
      <ErrorNote message={error} />
      {sources?.length === 0 && <p class="empty">No source yet: create one from a saved schema version.</p>}
      <SourcePicker sources={sources} sourceId={sourceId} onSource={onSource} />
      {source && (
        <>
          <form class="inline" onSubmit={regenerate}>
            <TextField label="Seed" value={seed} onInput={setSeed} hint="The same seed regenerates the same rows" />
            <button type="submit">Regenerate</button>
          </form>
          <ErrorNote message={actionError} />
          {versions && (
            <MoveVersion
              api={api}
              project={project}
              source={source}
              versions={versions}
              onMoved={() => {
                void reload(source.id);
                setMoves((count) => count + 1);
              }}
            />
          )}
          {jobId && <JobMonitor api={api} job={{ projectId: project.id, sourceId: source.id, jobId }} onFinished={() => void reload(source.id)} />}
        </>
      )}
    </div>
  );
}

function CreateSource({
  api,
  project,
  versions = [],
  versionsError,
  onCreated,
}: SourceViewProps & { versions: VersionOption[] | undefined; versionsError: string | undefined; onCreated: (source: Source) => void }) {
  const announce = useAnnounce();
  const [versionId, setVersionId] = useState('');
  const [name, setName] = useState('');
  const [kind, setKind] = useState<Source['kind']>(SOURCE_KINDS[0]);
  const [seed, setSeed] = useState('');
  const [error, setError] = useState<string>();
  const [busy, setBusy] = useState(false);

  useEffect(() => setVersionId((current) => (versions.some((version) => version.value === current) ? current : (versions[0]?.value ?? ''))), [versions]);

  const submit = async (event: Event) => {
    event.preventDefault();
    setBusy(true);
    setError(undefined);
    const {
      data,
      error: failure,
      response,
    } = await api.POST('/public/v1/projects/{projectId}/sources', {
      params: { path: { projectId: project.id } },
      body: { name: name.trim(), kind, schemaVersionId: versionId, ...(seed.trim() ? { seed: seed.trim() } : {}) },
    });
    setBusy(false);
    if (failure) return setError(errorText(failure, response));
    announce(`Source ${data.name} created: generating`);
    setName('');
    onCreated(data);
  };

  return (
    <form class="create-source" onSubmit={submit} aria-labelledby="create-source-heading">
      <h3 id="create-source-heading">New source</h3>
      {versions.length === 0 ? (
        <p class="empty">Save a schema in Design first: a source generates the data of one schema version.</p>
      ) : (
        <div class="row">
          <TextField label="Source name" value={name} onInput={setName} required />
          <SelectField label="Schema version" value={versionId} options={versions} onChange={setVersionId} />
          <SelectField label="Database" value={kind} options={SOURCE_KINDS} onChange={(value) => setKind(value as Source['kind'])} />
          <TextField label="Seed (optional)" value={seed} onInput={setSeed} hint="Use the preview's seed to load the rows you previewed" />
          <button type="submit" class="primary" disabled={busy || !name.trim() || !versionId}>
            {busy ? 'Creating…' : 'Create source'}
          </button>
        </div>
      )}
      <ErrorNote message={error ?? versionsError} />
    </form>
  );
}
