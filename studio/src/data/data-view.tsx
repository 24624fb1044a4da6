// Data: a source's tables from its runtime docs, browsed through its runtime API with a source key
// (the studio's own, one per source kept in this browser, or pasted): filters that fit each field's
// type, sort, pages with the total, populate, cell edits, new and deleted rows, and the equivalent
// curl and SDK call.
import type { RuntimeClient } from '@sds/sdk';
import { useEffect, useMemo, useRef, useState } from 'preact/hooks';
import {
  baseUrl,
  errorText,
  isStudioKey,
  keys,
  runtimeClient,
  STUDIO_KEY_NAME,
  type ManagementClient,
  type RuntimeDocs,
  type SourceApiKey,
  type StoredSourceKey,
} from '../api.ts';
import { SourcePicker, useSources, type SourceViewProps } from '../generate/generate-view.tsx';
import { ConfirmButton, CopyBox, ErrorNote, SelectField, TextField, useAnnounce, useDebounced } from '../ui.tsx';
import { Filters } from './filters.tsx';
import { equivalentRequests, listQuery, type TableQuery } from './query.ts';
import { RowsTable, type RowList } from './rows-table.tsx';

const PAGE_SIZES = ['10', '25', '50', '100'];
const emptyQuery = (): TableQuery => ({ filters: [], offset: 0, limit: 25, populate: [] });

export function DataView(props: SourceViewProps) {
  const { api, project, sourceId, onSource } = props;
  const { sources, source, error } = useSources(props);
  const [sourceKey, setSourceKey] = useState<StoredSourceKey>();
  const [refused, setRefused] = useState<string>();
  useEffect(() => {
    setSourceKey(sourceId ? keys.source(sourceId) : undefined);
    setRefused(undefined);
  }, [sourceId]);
  const use = (key: StoredSourceKey) => {
    keys.setSource(sourceId, key);
    setSourceKey(key);
    setRefused(undefined);
  };
  const forget = (reason?: string) => {
    keys.setSource(sourceId, undefined);
    setSourceKey(undefined);
    setRefused(reason);
  };
  return (
    <div class="data">
      <SourcePicker sources={sources} sourceId={sourceId} onSource={onSource} />
      <ErrorNote message={error ?? refused} />
      {sources?.length === 0 && <p class="empty">No source yet: create one in Generate.</p>}
      {source && !sourceKey && <SourceKeyPrompt api={api} projectId={project.id} sourceId={source.id} onKey={use} />}
      {source && sourceKey && (
        <KeyBar api={api} projectId={project.id} sourceId={source.id} sourceKey={sourceKey} onRevoked={() => forget()} onForget={() => forget()} />
      )}
      {source && sourceKey && (
        <TableBrowser
          key={source.id}
          api={api}
          projectId={project.id}
          sourceId={source.id}
          runtime={runtimeClient(source.id, sourceKey.key)}
          onKeyRefused={() => forget('The source key kept in this browser was refused (revoked?): create or paste another.')}
        />
      )}
    </div>
  );
}

/** Keys of a source, for the prompt and the key bar (metadata only). */
async function sourceKeys(api: ManagementClient, projectId: string, sourceId: string) {
  return api.GET('/public/v1/projects/{projectId}/sources/{sourceId}/api-keys', { params: { path: { projectId, sourceId }, query: { limit: 1000 } } });
}

const when = (iso: string | null | undefined) => (iso ? new Date(iso).toLocaleString() : 'never');

/**
 * Asks for a source key: the studio's own (made once per source and kept in this browser), or a
 * pasted one. When the source has studio keys whose secret this browser does not hold, making a new
 * one revokes them: a source has one studio key, not one per visit.
 */
function SourceKeyPrompt({
  api,
  projectId,
  sourceId,
  onKey,
}: {
  api: ManagementClient;
  projectId: string;
  sourceId: string;
  onKey: (key: StoredSourceKey) => void;
}) {
  const announce = useAnnounce();
  const [pasted, setPasted] = useState('');
  const [error, setError] = useState<string>();
  const [orphans, setOrphans] = useState<SourceApiKey[]>();
  useEffect(() => {
    void sourceKeys(api, projectId, sourceId).then(({ data, error: failure, response }) =>
      failure ? setError(errorText(failure, response)) : setOrphans(data.filter((key) => isStudioKey(key.slug))),
    );
  }, [sourceId]);
  const create = async () => {
    for (const old of orphans ?? []) {
      const { error: failure, response } = await api.DELETE('/public/v1/projects/{projectId}/sources/{sourceId}/api-keys/{keyId}', {
        params: { path: { projectId, sourceId, keyId: old.id } },
      });
      if (failure) return setError(errorText(failure, response));
    }
    const {
      data,
      error: failure,
      response,
    } = await api.POST('/public/v1/projects/{projectId}/sources/{sourceId}/api-keys', {
      params: { path: { projectId, sourceId } },
      body: { name: STUDIO_KEY_NAME },
    });
    if (failure) return setError(errorText(failure, response));
    announce(
      orphans?.length
        ? `The studio key was replaced: ${orphans.map((key) => key.slug).join(', ')} revoked, ${data.slug} created`
        : `A source key named ${data.slug} was created for the studio`,
    );
    onKey({ key: data.key, id: data.id, slug: data.slug, createdAt: data.createdAt });
  };
  if (!orphans && !error) return null;
  return (
    <section class="key-prompt" aria-labelledby="key-prompt-heading">
      <h3 id="key-prompt-heading">A source key to read the data</h3>
      <p>
        The table view calls the source's runtime API, as your front end would, with a source key. The studio makes one key per source, named{' '}
        <code>{STUDIO_KEY_NAME}</code>, and keeps it in this browser for the next visits.
      </p>
      {orphans && orphans.length > 0 ? (
        <>
          <p data-testid="orphan-keys">
            This source has a studio key this browser does not hold ({orphans.map((key) => `${key.slug}, created ${when(key.createdAt)}`).join('; ')}
            ): its secret was shown once. Replacing it revokes it and makes a new one.
          </p>
          <button type="button" class="primary" onClick={create}>
            Replace the studio key
          </button>
        </>
      ) : (
        <button type="button" class="primary" onClick={create}>
          Create a key for the studio
        </button>
      )}
      <form
        class="inline"
        onSubmit={(event) => {
          event.preventDefault();
          if (pasted.trim()) onKey({ key: pasted.trim() });
        }}
      >
        <TextField label="Or use a source key" type="password" autoComplete="off" placeholder="svc_src_…" value={pasted} onInput={setPasted} />
        <button type="submit" disabled={!pasted.trim()}>
          Use this key
        </button>
      </form>
      <ErrorNote message={error} />
    </section>
  );
}

/** Which key the table view reads with, and (for the studio's own key) revoking it. */
function KeyBar({
  api,
  projectId,
  sourceId,
  sourceKey,
  onRevoked,
  onForget,
}: {
  api: ManagementClient;
  projectId: string;
  sourceId: string;
  sourceKey: StoredSourceKey;
  onRevoked: () => void;
  onForget: () => void;
}) {
  const announce = useAnnounce();
  const [error, setError] = useState<string>();
  const revoke = async () => {
    const { error: failure, response } = await api.DELETE('/public/v1/projects/{projectId}/sources/{sourceId}/api-keys/{keyId}', {
      params: { path: { projectId, sourceId, keyId: sourceKey.id! } },
    });
    if (failure) return setError(errorText(failure, response));
    announce(`Key ${sourceKey.slug ?? STUDIO_KEY_NAME} revoked`);
    onRevoked();
  };
  return (
    <div class="row key-bar" data-testid="key-bar">
      {sourceKey.id ? (
        <>
          <span class="hint">
            Reading with the studio's key <code>{sourceKey.slug ?? STUDIO_KEY_NAME}</code>
            {sourceKey.createdAt ? `, created ${when(sourceKey.createdAt)}` : ''}
          </span>
          <ConfirmButton action="Revoke" what={sourceKey.slug ?? STUDIO_KEY_NAME} onConfirm={revoke} />
        </>
      ) : (
        <>
          <span class="hint">Reading with a pasted source key</span>
          <button type="button" onClick={onForget}>
            Forget it
          </button>
        </>
      )}
      <ErrorNote message={error} />
    </div>
  );
}

function TableBrowser({
  api,
  projectId,
  sourceId,
  runtime,
  onKeyRefused,
}: {
  api: ManagementClient;
  projectId: string;
  sourceId: string;
  runtime: RuntimeClient;
  onKeyRefused: () => void;
}) {
  const announce = useAnnounce();
  const [docs, setDocs] = useState<RuntimeDocs>();
  const [table, setTable] = useState('');
  const [query, setQuery] = useState<TableQuery>(emptyQuery());
  const [rows, setRows] = useState<RowList>();
  const [error, setError] = useState<string>();
  const [loading, setLoading] = useState(false);
  const [reloads, setReloads] = useState(0);
  // After a write the page reloads quietly: the write's own announcement must not be talked over.
  const quiet = useRef(false);

  useEffect(() => {
    void api
      .GET('/public/v1/projects/{projectId}/sources/{sourceId}/runtime-docs', { params: { path: { projectId, sourceId } } })
      .then(({ data, error: failure, response }) => {
        if (failure) return setError(errorText(failure, response));
        setDocs(data);
        setTable(data.entities[0]?.id ?? '');
      });
  }, [sourceId]);

  const entity = docs?.entities.find((candidate) => candidate.id === table);
  // Table and query settle together: a request never pairs a new table with the old query.
  const settled = useDebounced(
    useMemo(() => ({ table, query }), [table, query]),
    300,
  );
  const shown = docs?.entities.find((candidate) => candidate.id === settled.table);
  const sdkQuery = useMemo(() => (shown ? listQuery(settled.query, shown.fields) : undefined), [shown, settled]);

  useEffect(() => {
    if (!shown || !sdkQuery) return;
    let current = true;
    setLoading(true);
    void runtime.list(shown.id, sdkQuery).then(({ data, error: failure, response }) => {
      if (!current) return;
      setLoading(false);
      if (response.status === 401) return onKeyRefused();
      if (failure) return setError(errorText(failure, response));
      setError(undefined);
      setRows(data);
      if (!quiet.current) announce(`${data.meta.pagination.total} rows match; showing ${data.data.length}`);
      quiet.current = false;
    });
    return () => {
      current = false;
    };
  }, [shown, sdkQuery, reloads]);

  if (!docs) return <ErrorNote message={error} />;
  const selectTable = (id: string) => {
    setTable(id);
    setQuery(emptyQuery());
    setRows(undefined);
  };
  const page = rows?.meta.pagination;
  const requests = shown && sdkQuery ? equivalentRequests(baseUrl(), sourceId, shown.id, sdkQuery) : undefined;
  const references = entity?.fields.filter((field) => field.references) ?? [];
  return (
    <div class="browser">
      <div class="row">
        <SelectField label="Table" value={table} options={docs.entities.map((candidate) => candidate.id)} onChange={selectTable} />
        <SelectField
          label="Rows per page"
          value={String(query.limit)}
          options={PAGE_SIZES}
          onChange={(value) => setQuery({ ...query, limit: Number(value), offset: 0 })}
        />
        {references.map((field) => (
          <div class="field checkbox" key={field.id}>
            <input
              id={`populate-${field.id}`}
              type="checkbox"
              checked={query.populate.includes(field.id)}
              onChange={(event) =>
                setQuery({
                  ...query,
                  populate: event.currentTarget.checked ? [...query.populate, field.id] : query.populate.filter((name) => name !== field.id),
                })
              }
            />
            <label for={`populate-${field.id}`}>
              Populate {field.id} ({field.references!.entity})
            </label>
          </div>
        ))}
      </div>
      {entity && (
        <Filters fields={entity.fields} rows={rows?.data ?? []} filters={query.filters} onFilters={(filters) => setQuery({ ...query, filters, offset: 0 })} />
      )}
      <ErrorNote message={error} />
      {shown && rows && (
        <RowsTable
          entity={shown}
          rows={rows}
          busy={loading}
          sort={query.sort}
          populated={query.populate}
          onSort={(sort) => setQuery({ ...query, sort, offset: 0 })}
          runtime={runtime}
          onChanged={() => {
            quiet.current = true;
            setReloads(reloads + 1);
          }}
        />
      )}
      {page && (
        <nav class="pager" aria-label="Pages">
          <button type="button" disabled={query.offset === 0} onClick={() => setQuery({ ...query, offset: Math.max(0, query.offset - query.limit) })}>
            Previous page
          </button>
          <span data-testid="page-status">
            Rows {page.total === 0 ? 0 : page.offset + 1}–{page.offset + (rows?.data.length ?? 0)} of {page.total}
          </span>
          <button type="button" disabled={page.offset + query.limit >= page.total} onClick={() => setQuery({ ...query, offset: query.offset + query.limit })}>
            Next page
          </button>
        </nav>
      )}
      {requests && (
        <details class="requests">
          <summary>The same request with curl and the SDK</summary>
          <CopyBox label="curl command" text={requests.curl} testId="curl" />
          <CopyBox label="SDK call" text={requests.sdk} testId="sdk-call" />
        </details>
      )}
    </div>
  );
}
