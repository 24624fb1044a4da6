// The studio's frame: sign in with a team key, pick or create a project, then the five views
// (design, import, generate, data, keys) of that project. The selected source is shared by the last three.
import { useEffect, useMemo, useState } from 'preact/hooks';
import { errorText, keys, managementClient, type Project } from './api.ts';
import { DataView } from './data/data-view.tsx';
import { DesignView } from './design/design-view.tsx';
import { GenerateView } from './generate/generate-view.tsx';
import { ImportView, type ImportKept } from './import/import-view.tsx';
import { KeysView } from './keys/keys-view.tsx';
import { Announcer, ErrorNote, SelectField, Tabs, TextField, useAnnounce, type TabSpec } from './ui.tsx';

type View = 'design' | 'import' | 'generate' | 'data' | 'keys';
const VIEWS: TabSpec<View>[] = [
  { key: 'design', label: 'Design' },
  { key: 'import', label: 'Import' },
  { key: 'generate', label: 'Generate' },
  { key: 'data', label: 'Data' },
  { key: 'keys', label: 'Keys' },
];

export function App() {
  const [teamKey, setTeamKey] = useState(keys.team());
  const signOut = () => {
    keys.setTeam(undefined);
    setTeamKey(undefined);
  };
  return (
    <Announcer>
      <header class="top">
        <h1>
          sds <span>Studio</span>
        </h1>
        {teamKey && (
          <button type="button" class="link" onClick={signOut}>
            Sign out
          </button>
        )}
      </header>
      {teamKey ? <Workspace key={teamKey} teamKey={teamKey} /> : <SignIn onSignedIn={setTeamKey} />}
    </Announcer>
  );
}

function SignIn({ onSignedIn }: { onSignedIn: (key: string) => void }) {
  const [key, setKey] = useState('');
  const [error, setError] = useState<string>();
  const [busy, setBusy] = useState(false);
  const submit = async (event: Event) => {
    event.preventDefault();
    setBusy(true);
    setError(undefined);
    // A key is right when the management API accepts it: list one project with it.
    const attempt = await managementClient(key.trim())
      .GET('/public/v1/projects', { params: { query: { limit: 1 } } })
      .catch((failure: unknown) => ({ error: { error: `Cannot reach sds: ${String(failure)}` }, response: undefined }));
    setBusy(false);
    if (attempt.error) {
      const status = attempt.response?.status;
      setError(status === 401 ? `This key was refused (${attempt.error.error}). Use a team key, svc_api_…` : errorText(attempt.error, attempt.response));
      return;
    }
    keys.setTeam(key.trim());
    onSignedIn(key.trim());
  };
  return (
    <main class="sign-in">
      <form onSubmit={submit} aria-describedby="sign-in-about">
        <h2>Sign in</h2>
        <p id="sign-in-about">
          Use a team API key (<code>svc_api_…</code>): the first start of sds prints one, and <code>sds team-key create</code> makes more. The key stays in this
          tab only (session storage) and is forgotten when you close it.
        </p>
        <TextField label="Team API key" type="password" autoComplete="off" value={key} onInput={setKey} required />
        <ErrorNote message={error} />
        <button type="submit" disabled={busy || !key.trim()}>
          {busy ? 'Signing in…' : 'Sign in'}
        </button>
      </form>
    </main>
  );
}

function Workspace({ teamKey }: { teamKey: string }) {
  const api = useMemo(() => managementClient(teamKey), [teamKey]);
  const announce = useAnnounce();
  const [projects, setProjects] = useState<Project[]>();
  const [projectId, setProjectId] = useState('');
  const [error, setError] = useState<string>();
  const [view, setView] = useState<View>('design');
  const [sourceId, setSourceId] = useState('');
  const [newName, setNewName] = useState('');
  // A schema to open in Design (one saved by Import): Design is mounted anew on it.
  const [opened, setOpened] = useState<{ schemaId: string; nonce: number }>();
  const [imported, setImported] = useState<ImportKept>();

  const load = async (select?: string) => {
    const { data, error: failure, response } = await api.GET('/public/v1/projects', { params: { query: { limit: 1000 } } });
    if (failure) return setError(errorText(failure, response));
    setProjects(data);
    const chosen = select ?? (data.some((project) => project.id === projectId) ? projectId : (data[0]?.id ?? ''));
    setProjectId(chosen);
  };
  useEffect(() => void load(), [api]);
  useEffect(() => setSourceId(''), [projectId]);

  const create = async (event: Event) => {
    event.preventDefault();
    setError(undefined);
    const { data, error: failure, response } = await api.POST('/public/v1/projects', { body: { name: newName.trim() } });
    if (failure) return setError(errorText(failure, response));
    setNewName('');
    announce(`Project ${data.name} created`);
    await load(data.id);
  };

  const project = useMemo(() => projects?.find((candidate) => candidate.id === projectId), [projects, projectId]);
  return (
    <main class="workspace">
      <section class="projects" aria-label="Project">
        {projects && projects.length > 0 && (
          <SelectField label="Project" value={projectId} options={projects.map((item) => ({ value: item.id, label: item.name }))} onChange={setProjectId} />
        )}
        <form class="inline" onSubmit={create}>
          <TextField label="New project" placeholder="Name" value={newName} onInput={setNewName} />
          <button type="submit" disabled={!newName.trim()}>
            Create project
          </button>
        </form>
        <ErrorNote message={error} />
      </section>
      {projects && !project && <p class="empty">Create a project to start: it holds your schemas and sources.</p>}
      {project && (
        <>
          <Tabs label="Views" idPrefix="view" tabs={VIEWS} current={view} onSelect={setView} />
          {VIEWS.map(({ key }) => (
            <section key={key} role="tabpanel" id={`view-panel-${key}`} aria-labelledby={`view-tab-${key}`} hidden={key !== view} class="panel">
              {key === 'design' && <DesignView key={opened?.nonce} api={api} project={project} open={opened?.schemaId} />}
              {key === 'import' && view === key && (
                <ImportView
                  api={api}
                  project={project}
                  projects={projects!}
                  kept={imported}
                  onKeep={setImported}
                  onOpen={(id, schemaId) => {
                    setProjectId(id);
                    setOpened({ schemaId, nonce: Date.now() });
                    setView('design');
                  }}
                />
              )}
              {key === 'generate' && view === key && <GenerateView api={api} project={project} sourceId={sourceId} onSource={setSourceId} />}
              {key === 'data' && view === key && <DataView api={api} project={project} sourceId={sourceId} onSource={setSourceId} />}
              {key === 'keys' && view === key && <KeysView api={api} project={project} sourceId={sourceId} onSource={setSourceId} />}
            </section>
          ))}
        </>
      )}
    </main>
  );
}
