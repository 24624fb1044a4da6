// What sds knows about MySQL beyond SQL (names, URLs, namespaces, its default target's variable):
// plain data without the driver, so configuration and the CLI read it without loading mysql2.
import type { DialectFacts } from '../dialect.ts';

export const mysqlFacts: DialectFacts = {
  label: 'MySQL',
  urlSchemes: ['mysql', 'mariadb'],
  urlExample: 'mysql://…',
  namespaceField: 'database',
  reservedNamespace: /^(information_schema|mysql|performance_schema|sys)$/i,
  defaultTargetEnv: 'MYSQL_URL',
  defaultPort: 3306,
  // Read by mysqlPoolOptions (TLS on or off, verified unless `require(d)`); nothing else of the URL's query is used.
  urlParameters: {
    ssl: ['true', 'false', '1', '0', 'disable', 'disabled', 'require', 'required', 'verify-full', 'verify_identity'],
    sslmode: ['disable', 'disabled', 'require', 'required', 'verify-full', 'verify_identity'],
  },
  tableInheritance: false,
  notNullCycles: 'checks-off',
  // MyISAM/Aria/MEMORY tables keep their writes and InnoDB never moves AUTO_INCREMENT back.
  rollbackUndoesAll: false,
};
