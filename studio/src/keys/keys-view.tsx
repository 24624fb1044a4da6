// Keys: a source's API keys (metadata only), a new key's secret shown once with a copy button, and
// revoking (a revoked key is refused at once by the runtime API).
import { useEffect, useState } from 'preact/hooks';
import { errorText, keys, type SourceApiKey } from '../api.ts';
import { SourcePicker, useSources, type SourceViewProps } from '../generate/generate-view.tsx';
import { ConfirmButton, CopyBox, ErrorNote, TextField, useAnnounce } from '../ui.tsx';

export function KeysView(props: SourceViewProps) {
  const { api, project, sourceId, onSource } = props;
  const announce = useAnnounce();
  const { sources, source, error: sourcesError } = useSources(props);
  const [list, setList] = useState<SourceApiKey[]>([]);
  const [name, setName] = useState('');
  const [secret, setSecret] = useState<{ id: string; key: string }>();
  const [error, setError] = useState<string>();

  const path = { projectId: project.id, sourceId };
  const load = async () => {
    const {
      data,
      error: failure,
      response,
    } = await api.GET('/public/v1/projects/{projectId}/sources/{sourceId}/api-keys', { params: { path, query: { limit: 1000 } } });
    if (failure) return setError(errorText(failure, response));
    setList(data);
  };
  useEffect(() => {
    setSecret(undefined);
    if (sourceId) void load();
  }, [sourceId]);

  const create = async (event: Event) => {
    event.preventDefault();
    const {
      data,
      error: failure,
      response,
    } = await api.POST('/public/v1/projects/{projectId}/sources/{sourceId}/api-keys', { params: { path }, body: name.trim() ? { name: name.trim() } : {} });
    if (failure) return setError(errorText(failure, response));
    setError(undefined);
    setName('');
    setSecret({ id: data.id, key: data.key });
    announce(`Key ${data.slug} created: copy its secret now, it is shown only once`);
    await load();
  };

  const revoke = async (key: SourceApiKey) => {
    const { error: failure, response } = await api.DELETE('/public/v1/projects/{projectId}/sources/{sourceId}/api-keys/{keyId}', {
      params: { path: { ...path, keyId: key.id } },
    });
    if (failure) return setError(errorText(failure, response));
    if (secret?.id === key.id) setSecret(undefined);
    // The data view's key was this one: it must ask for another.
    if (keys.source(sourceId)?.id === key.id) keys.setSource(sourceId, undefined);
    announce(`Key ${key.slug} revoked`);
    await load();
  };

  return (
    <div class="keys">
      <SourcePicker sources={sources} sourceId={sourceId} onSource={onSource} />
      <ErrorNote message={sourcesError} />
      {sources?.length === 0 && <p class="empty">No source yet: create one in Generate.</p>}
      {source && (
        <>
          <form class="inline" onSubmit={create}>
            <TextField label="New key name (optional)" value={name} onInput={setName} />
            <button type="submit" class="primary">
              Create key
            </button>
          </form>
          {secret && (
            <div class="secret" data-testid="new-secret">
              <p>
                <strong>Copy this secret now:</strong> sds stores only its hash and will never show it again.
              </p>
              <CopyBox label="Secret" text={secret.key} />
            </div>
          )}
          <ErrorNote message={error} />
          <div class="table-scroll" tabIndex={0} aria-label="Keys">
            <table class="rows" data-testid="keys-table">
              <caption>Keys of {source.name}</caption>
              <thead>
                <tr>
                  <th scope="col">Key</th>
                  <th scope="col">Created</th>
                  <th scope="col">Last used</th>
                  <th scope="col">
                    <span class="sr-only">Actions</span>
                  </th>
                </tr>
              </thead>
              <tbody>
                {list.map((key) => (
                  <tr key={key.id} data-key-id={key.id}>
                    <th scope="row">
                      {key.slug} <code>{key.keyPrefix}…</code>
                      {keys.source(sourceId)?.id === key.id && <span class="badge">this browser's studio key</span>}
                    </th>
                    <td>{new Date(key.createdAt).toLocaleString()}</td>
                    <td>{key.lastUsedAt ? new Date(key.lastUsedAt).toLocaleString() : 'never'}</td>
                    <td>
                      <ConfirmButton action="Revoke" what={key.slug} onConfirm={() => revoke(key)} />
                    </td>
                  </tr>
                ))}
              </tbody>
            </table>
          </div>
          {list.length === 0 && <p class="empty">No key yet.</p>}
        </>
      )}
    </div>
  );
}
