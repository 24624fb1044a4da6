// What sds knows about PostgreSQL beyond SQL (names, URLs, namespaces, its default target's variable):
// plain data without the driver, so configuration and the CLI read it without loading pg.
import type { DialectFacts } from '../dialect.ts';

export const postgresFacts: DialectFacts = {
  label: 'PostgreSQL',
  urlSchemes: ['postgres', 'postgresql'],
  urlExample: 'postgres://…',
  namespaceField: 'schema',
  reservedNamespace: /^(public|information_schema|pg_.*)$/i,
  defaultTargetEnv: 'POSTGRES_TARGET_URL',
  defaultPort: 5432,
  // TLS modes only: sslrootcert, sslcert, sslkey read files; host, options, application_name… change where and how the session runs.
  urlParameters: { sslmode: ['disable', 'prefer', 'require', 'verify-ca', 'verify-full', 'no-verify'], ssl: ['true', 'false', '1', '0'] },
  tableInheritance: true,
  notNullCycles: 'constraints',
  rollbackUndoesAll: true,
};
