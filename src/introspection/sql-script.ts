// SQL scripts (pg_dump --schema-only, mysqldump --no-data, ORM migration output) split into
// statements without parsing them: only quotes, comments, dollar quotes, COPY data and the client
// commands (psql `\…`, mysql DELIMITER) are understood, as the engine's ScriptSyntax says. Each
// statement is then sorted by its leading keywords: DDL runs, session settings run quietly, and
// data, privileges, ownership and database switches are skipped.
import type { ScriptSyntax } from '../dialects/catalog.ts';

export interface ScriptStatement {
  /** The statement without its terminator. */
  text: string;
  /** 1-based line of its first token. */
  line: number;
  /** A client command (psql `\connect`, mysql `DELIMITER`), not SQL. */
  client?: boolean;
}

/** Splits a script into statements and client commands, in order. */
export function splitScript(script: string, syntax: ScriptSyntax): ScriptStatement[] {
  const statements: ScriptStatement[] = [];
  let delimiter = ';';
  let start = -1;
  let line = 1;
  let lineBegin = 0;
  let startLine = 1;
  let i = 0;
  const text = script.replace(/^\uFEFF/, '');
  const push = (end: number) => {
    if (start >= 0) statements.push({ text: text.slice(start, end).trim(), line: startLine });
    start = -1;
  };
  const begin = () => {
    if (start < 0) {
      start = i;
      startLine = line;
    }
  };
  const skipTo = (end: number) => {
    for (let j = i; j < end && j < text.length; j++) {
      if (text[j] === '\n') {
        line++;
        lineBegin = j + 1;
      }
    }
    i = Math.min(end, text.length);
  };
  // Client commands stand at the start of a line, outside any statement.
  const atLineStart = () => start < 0 && /^[ \t]*$/.test(text.slice(lineBegin, i));

  while (i < text.length) {
    const char = text[i]!;
    const rest = (length: number) => text.slice(i, i + length);
    if (char === '\n') {
      line++;
      i++;
      lineBegin = i;
      continue;
    }
    if (/\s/.test(char)) {
      i++;
      continue;
    }
    // Client commands take the rest of their line and are not SQL.
    if (atLineStart() && ((syntax.backslashCommands && char === '\\') || (syntax.delimiterCommand && /^delimiter\s/i.test(rest(10))))) {
      const end = text.indexOf('\n', i) < 0 ? text.length : text.indexOf('\n', i);
      const command = text.slice(i, end).trim();
      statements.push({ text: command, line, client: true });
      if (!command.startsWith('\\')) delimiter = command.split(/\s+/)[1] ?? ';';
      i = end;
      continue;
    }
    if (rest(2) === '--' || (syntax.hashComments && char === '#')) {
      const end = text.indexOf('\n', i);
      i = end < 0 ? text.length : end;
      continue;
    }
    if (rest(2) === '/*' && !(syntax.executableComments && rest(3) === '/*!')) {
      const end = text.indexOf('*/', i + 2);
      skipTo(end < 0 ? text.length : end + 2);
      continue;
    }
    begin();
    if (rest(delimiter.length) === delimiter) {
      const statement = text.slice(start, i).trim();
      push(i);
      i += delimiter.length;
      // COPY … FROM stdin: the data follows, up to a line holding only `\.`.
      if (syntax.backslashCommands && /^COPY\b[\s\S]*\bFROM\s+stdin\b/i.test(statement)) {
        const end = text.indexOf('\n\\.', i);
        skipTo(end < 0 ? text.length : end + 3);
      }
      continue;
    }
    if (syntax.executableComments && rest(3) === '/*!') {
      const end = text.indexOf('*/', i + 3);
      skipTo(end < 0 ? text.length : end + 2);
      continue;
    }
    if (char === "'" || char === '"' || char === '`') {
      const backslashes = char === "'" && (syntax.backslashEscapes || /[Ee]$/.test(text.slice(i - 1, i)));
      skipTo(closingQuote(text, i, char, backslashes) + 1);
      continue;
    }
    if (syntax.dollarQuotes && char === '$') {
      const tag = /^\$(?:[A-Za-z_][A-Za-z0-9_]*)?\$/.exec(text.slice(i, i + 64))?.[0];
      if (tag && !/[A-Za-z0-9_]$/.test(text.slice(i - 1, i))) {
        const end = text.indexOf(tag, i + tag.length);
        skipTo(end < 0 ? text.length : end + tag.length);
        continue;
      }
    }
    i++;
  }
  push(text.length);
  return statements.filter((statement) => statement.text !== '');
}

/** Index of the quote closing the one at `open` (a doubled quote is part of the text). */
function closingQuote(text: string, open: number, quote: string, backslashes: boolean): number {
  for (let i = open + 1; i < text.length; i++) {
    if (backslashes && text[i] === '\\') {
      i++;
    } else if (text[i] === quote) {
      if (text[i + 1] === quote) i++;
      else return i;
    }
  }
  return text.length - 1;
}

/** What happens to a statement of a DDL script. */
export type StatementPlan =
  /** DDL: run it; a failure fails the import unless `tolerated` (then it is a warning). */
  | { action: 'run'; tolerated: boolean }
  /** Skipped, with the reason users read (grouped by it). */
  | { action: 'skip'; reason: string; quiet?: boolean };

const DATA = 'data, not schema (sds imports the schema only)';
const PRIVILEGES = 'privileges and ownership do not matter to a schema config';
const DATABASES = 'the script runs in a throw-away database of its own';

/** Leading keywords → a test on the upper-cased, space-normalised start of a statement. */
function leading(...prefixes: string[]): RegExp {
  const escaped = prefixes.map((prefix) => prefix.replace(/[.*+?^${}()|[\]\\]/g, '\\$&').replace(/ /g, '\\s+'));
  return new RegExp(`^(?:${escaped.join('|')})(?![A-Z0-9_$])`);
}

const SKIPPED: Array<[RegExp, string, boolean?]> = [
  [leading('INSERT', 'UPDATE', 'DELETE', 'COPY', 'REPLACE', 'LOAD DATA', 'LOAD XML', 'TRUNCATE', 'LOCK TABLES', 'LOCK TABLE', 'UNLOCK TABLES', 'SELECT PG_CATALOG.SETVAL', 'SELECT SETVAL', 'REFRESH MATERIALIZED VIEW'), DATA],
  [
    leading('GRANT', 'REVOKE', 'SECURITY LABEL', 'ALTER DEFAULT PRIVILEGES', 'CREATE ROLE', 'ALTER ROLE', 'DROP ROLE', 'CREATE USER', 'ALTER USER', 'DROP USER', 'SET ROLE', 'SET SESSION AUTHORIZATION', 'REASSIGN OWNED'),
    PRIVILEGES,
  ],
  [/^ALTER (?:[A-Z_]+ )+[^ ]+.* OWNER TO /, PRIVILEGES],
  [leading('CREATE DATABASE', 'ALTER DATABASE', 'DROP DATABASE', 'USE', 'COMMENT ON DATABASE', 'CREATE TABLESPACE', 'ALTER SYSTEM', 'CREATE PUBLICATION', 'ALTER PUBLICATION', 'CREATE SUBSCRIPTION'), DATABASES],
  // The throw-away database has a public schema already.
  [leading('CREATE SCHEMA PUBLIC', 'CREATE SCHEMA IF NOT EXISTS PUBLIC', 'COMMENT ON SCHEMA PUBLIC'), 'the public schema exists already', true],
  // The import runs in one transaction of its own.
  [leading('BEGIN', 'COMMIT', 'ROLLBACK', 'START TRANSACTION', 'END', 'SAVEPOINT', 'RELEASE'), 'transaction control', true],
  [leading('SELECT', 'WITH', 'VACUUM', 'ANALYZE', 'CHECKPOINT', 'NOTIFY', 'LISTEN', 'CALL', 'EXPLAIN', 'SHOW'), 'not DDL'],
];
const SESSION = leading('SET', 'RESET');
const SESSION_FUNCTIONS = leading('SELECT PG_CATALOG.SET_CONFIG', 'SELECT SET_CONFIG');
/** Extensions, code and views may need what a throw-away database lacks; no table depends on them silently. */
const TOLERATED = /^(?:CREATE|COMMENT ON|ALTER) (?:OR REPLACE )?(?:(?:ALGORITHM|DEFINER|SQL SECURITY)\s*=?\s*\S+ )*(?:EXTENSION|FUNCTION|PROCEDURE|TRIGGER|EVENT|AGGREGATE|RULE|POLICY|VIEW|MATERIALIZED VIEW)\b/;

/** The plan of a statement, by its leading keywords (MySQL executable comments read as their content). */
export function planStatement(statement: ScriptStatement): StatementPlan {
  // DELIMITER is understood by the splitter; pg_dump's \restrict guards are meant for psql alone.
  if (statement.client) return { action: 'skip', reason: 'client commands (psql \\…) are not SQL', quiet: /^(delimiter\s|\\(un)?restrict\b)/i.test(statement.text) };
  const words = statement.text.replace(/\/\*!\d*|\*\//g, ' ').slice(0, 300).trim().toUpperCase().replace(/\s+/g, ' ');
  if (SESSION_FUNCTIONS.test(words)) return { action: 'run', tolerated: true };
  for (const [pattern, reason, quiet] of SKIPPED) if (pattern.test(words)) return { action: 'skip', reason, ...(quiet ? { quiet } : {}) };
  if (SESSION.test(words) || TOLERATED.test(words)) return { action: 'run', tolerated: true };
  return { action: 'run', tolerated: false };
}
