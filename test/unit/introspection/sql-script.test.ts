// splitScript and planStatement as tables of examples: scripts as pg_dump, mysqldump and ORMs write
// them, split into statements with their lines, and what happens to each.
import { describe, expect, it } from 'vitest';
import { mysqlDialect, postgresDialect } from '../../../src/dialects/index.ts';
import { planStatement, splitScript, type StatementPlan } from '../../../src/introspection/sql-script.ts';

const pg = postgresDialect.scriptSyntax;
const my = mysqlDialect.scriptSyntax;

describe('splitScript', () => {
  type Case = [string, { syntax: typeof pg; given: string; want: Array<[number, string]> }];
  const cases: Case[] = [
    ['statements and their lines', { syntax: pg, given: 'CREATE TABLE a (id int);\n\nCREATE TABLE b (id int);', want: [[1, 'CREATE TABLE a (id int)'], [3, 'CREATE TABLE b (id int)']] }],
    ['comments are not statements', { syntax: pg, given: '-- a; b\n/* c; d */\nSELECT 1;\n-- end', want: [[3, 'SELECT 1']] }],
    ["semicolons in strings, doubled quotes", { syntax: pg, given: "COMMENT ON TABLE t IS 'a;b''c';\nSELECT 2;", want: [[1, "COMMENT ON TABLE t IS 'a;b''c'"], [2, 'SELECT 2']] }],
    ['semicolons in quoted identifiers', { syntax: pg, given: 'CREATE TABLE "a;b" (id int); SELECT 1;', want: [[1, 'CREATE TABLE "a;b" (id int)'], [1, 'SELECT 1']] }],
    [
      'dollar-quoted bodies',
      {
        syntax: pg,
        given: 'CREATE FUNCTION f() RETURNS int AS $body$ SELECT 1; $body$ LANGUAGE sql;\nCREATE FUNCTION g() RETURNS int AS $$ SELECT 2; $$ LANGUAGE sql;',
        want: [[1, 'CREATE FUNCTION f() RETURNS int AS $body$ SELECT 1; $body$ LANGUAGE sql'], [2, 'CREATE FUNCTION g() RETURNS int AS $$ SELECT 2; $$ LANGUAGE sql']],
      },
    ],
    [
      'psql commands and COPY data',
      {
        syntax: pg,
        given: '\\connect shop\nCOPY t (a, b) FROM stdin;\n1\tx;y\n2\tz\n\\.\nSELECT 3;',
        want: [[1, '\\connect shop'], [2, 'COPY t (a, b) FROM stdin'], [6, 'SELECT 3']],
      },
    ],
    ['no terminator at the end', { syntax: pg, given: 'SELECT 1', want: [[1, 'SELECT 1']] }],
    ['E strings escape with backslashes', { syntax: pg, given: "SELECT E'a\\';b';\nSELECT 2;", want: [[1, "SELECT E'a\\';b'"], [2, 'SELECT 2']] }],
    [
      'mysqldump: executable comments, # comments, backslash escapes, backticks',
      {
        syntax: my,
        given: "/*!40101 SET NAMES utf8mb4 */;\n# note; here\nCREATE TABLE `a;b` (c varchar(9) DEFAULT 'x\\';y');\n",
        want: [[1, '/*!40101 SET NAMES utf8mb4 */'], [3, "CREATE TABLE `a;b` (c varchar(9) DEFAULT 'x\\';y')"]],
      },
    ],
    [
      'DELIMITER changes the terminator',
      {
        syntax: my,
        given: 'DELIMITER ;;\nCREATE TRIGGER t BEFORE INSERT ON a FOR EACH ROW BEGIN SET NEW.x = 1; END ;;\nDELIMITER ;\nSELECT 1;',
        want: [[1, 'DELIMITER ;;'], [2, 'CREATE TRIGGER t BEFORE INSERT ON a FOR EACH ROW BEGIN SET NEW.x = 1; END'], [3, 'DELIMITER ;'], [4, 'SELECT 1']],
      },
    ],
  ];
  for (const [name, { syntax, given, want }] of cases) {
    it(name, () => expect(splitScript(given, syntax).map((statement) => [statement.line, statement.text])).toEqual(want));
  }
});

describe('planStatement', () => {
  const run = (tolerated: boolean): StatementPlan => ({ action: 'run', tolerated });
  const skip = (reason: RegExp) => expect.objectContaining({ action: 'skip', reason: expect.stringMatching(reason) });
  type Case = [string, { given: string; client?: boolean; want: StatementPlan | ReturnType<typeof skip> }];
  const cases: Case[] = [
    ['CREATE TABLE', { given: 'CREATE TABLE public.t (id int)', want: run(false) }],
    ['ALTER TABLE … ADD CONSTRAINT', { given: 'ALTER TABLE ONLY public.t\n  ADD CONSTRAINT t_pkey PRIMARY KEY (id)', want: run(false) }],
    ['ALTER SEQUENCE … OWNED BY', { given: 'ALTER SEQUENCE public.t_id_seq OWNED BY public.t.id', want: run(false) }],
    ['COMMENT ON COLUMN', { given: "COMMENT ON COLUMN public.t.id IS 'x'", want: run(false) }],
    ['a session setting', { given: 'SET statement_timeout = 0', want: run(true) }],
    ['set_config', { given: "SELECT pg_catalog.set_config('search_path', '', false)", want: run(true) }],
    ['an extension', { given: 'CREATE EXTENSION IF NOT EXISTS citext WITH SCHEMA public', want: run(true) }],
    ['a function', { given: 'CREATE OR REPLACE FUNCTION f() RETURNS trigger AS $$ … $$', want: run(true) }],
    ['a MySQL trigger in executable comments', { given: '/*!50003 CREATE*/ /*!50017 DEFINER=`root`@`%`*/ /*!50003 TRIGGER t BEFORE INSERT ON a FOR EACH ROW SET NEW.x = 1 */', want: run(true) }],
    ['a MySQL view', { given: '/*!50001 CREATE ALGORITHM=UNDEFINED */ /*!50013 DEFINER=`root`@`%` SQL SECURITY DEFINER */ /*!50001 VIEW `v` AS select 1 */', want: run(true) }],
    ['a MySQL session setting', { given: '/*!40101 SET @OLD_SQL_MODE=@@SQL_MODE */', want: run(true) }],
    ['INSERT', { given: "INSERT INTO t VALUES (1, 'a')", want: skip(/^data, not schema/) }],
    ['COPY', { given: 'COPY public.t (id) FROM stdin', want: skip(/^data, not schema/) }],
    ['setval', { given: "SELECT pg_catalog.setval('public.t_id_seq', 42, true)", want: skip(/^data, not schema/) }],
    ['LOCK TABLES', { given: 'LOCK TABLES `t` WRITE', want: skip(/^data, not schema/) }],
    ['GRANT', { given: 'GRANT SELECT ON TABLE public.t TO reader', want: skip(/^privileges and ownership/) }],
    ['OWNER TO', { given: 'ALTER TABLE public.t OWNER TO postgres', want: skip(/^privileges and ownership/) }],
    ['OWNER TO of a type', { given: 'ALTER TYPE public.mood OWNER TO app', want: skip(/^privileges and ownership/) }],
    ['CREATE DATABASE', { given: 'CREATE DATABASE shop', want: skip(/throw-away database/) }],
    ['USE', { given: 'USE `shop`', want: skip(/throw-away database/) }],
    ['the public schema', { given: 'CREATE SCHEMA public', want: { action: 'skip', reason: 'the public schema exists already', quiet: true } }],
    ['another schema runs', { given: 'CREATE SCHEMA sales', want: run(false) }],
    ['BEGIN', { given: 'BEGIN', want: { action: 'skip', reason: 'transaction control', quiet: true } }],
    ['a query', { given: 'SELECT count(*) FROM t', want: skip(/^not DDL$/) }],
    ['a psql command', { given: '\\connect shop', client: true, want: skip(/^client commands/) }],
    ['pg_dump restrict guards, quietly', { given: '\\restrict abc', client: true, want: expect.objectContaining({ action: 'skip', quiet: true }) }],
    ['DELIMITER, quietly', { given: 'DELIMITER ;;', client: true, want: expect.objectContaining({ action: 'skip', quiet: true }) }],
    ['lower case', { given: 'insert into t values (1)', want: skip(/^data/) }],
    ['a name that starts like a keyword', { given: 'CREATE TABLE inserts (id int)', want: run(false) }],
  ];
  for (const [name, { given, client, want }] of cases) {
    it(name, () => expect(planStatement({ text: given, line: 1, ...(client ? { client } : {}) })).toEqual(want));
  }
});
