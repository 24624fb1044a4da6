// The schema versions of a project as choices ("Blog v2"), newest first within each schema.
import { useEffect, useState } from 'preact/hooks';
import { errorText, type ManagementClient, type Project } from '../api.ts';

export interface VersionOption {
  value: string;
  label: string;
}

export function useVersionOptions(api: ManagementClient, project: Project): { versions: VersionOption[] | undefined; error: string | undefined } {
  const [versions, setVersions] = useState<VersionOption[]>();
  const [error, setError] = useState<string>();
  useEffect(() => {
    void (async () => {
      const projectId = project.id;
      const schemas = await api.GET('/public/v1/projects/{projectId}/schemas', { params: { path: { projectId }, query: { limit: 1000 } } });
      if (schemas.error) return setError(errorText(schemas.error, schemas.response));
      const options: VersionOption[] = [];
      for (const schema of schemas.data) {
        const list = await api.GET('/public/v1/projects/{projectId}/schemas/{schemaId}/versions', {
          params: { path: { projectId, schemaId: schema.id }, query: { limit: 1000 } },
        });
        if (list.error) return setError(errorText(list.error, list.response));
        for (const version of [...list.data].sort((a, b) => b.version - a.version)) options.push({ value: version.id, label: `${schema.name} v${version.version}` });
      }
      setVersions(options);
    })();
  }, [project.id]);
  return { versions, error };
}
