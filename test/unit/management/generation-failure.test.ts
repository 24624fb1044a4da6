// describeFailure: the job error a team sees. Target connection failures say so plainly and never show
// the server's address or credentials (a source's connection string is a secret).
import { describe, expect, it } from 'vitest';
import { mysqlDialect, postgresDialect } from '../../../src/dialects/index.ts';
import { describeFailure, JobProgress } from '../../../src/management/generation-worker.ts';
import type { GenerationJob, JobStore } from '../../../src/store/jobs.ts';

const socketError = (code: string, message: string) => Object.assign(new Error(message), { code, errno: -1, syscall: 'connect' });

describe('describeFailure', () => {
  it.each([
    ['postgres refused', postgresDialect, socketError('ECONNREFUSED', 'connect ECONNREFUSED 10.1.2.3:5433'), /^Target database unreachable \(ECONNREFUSED\)\. /],
    ['postgres reset mid-COPY', postgresDialect, socketError('ECONNRESET', 'write ECONNRESET'), /^Target database unreachable \(ECONNRESET\)\. /],
    ['postgres shut down', postgresDialect, Object.assign(new Error('terminating connection due to administrator command'), { code: '57P01' }), /^Target database connection failed \(57P01\): terminating connection due to administrator command\. /],
    ['postgres lost', postgresDialect, new Error('Connection terminated unexpectedly'), /^Target database connection failed: Connection terminated unexpectedly\. /],
    ['mysql lost', mysqlDialect, Object.assign(new Error('Connection lost: The server closed the connection.'), { code: 'PROTOCOL_CONNECTION_LOST', fatal: true }), /^Target database connection failed \(PROTOCOL_CONNECTION_LOST\): Connection lost/],
    ['mysql denied', mysqlDialect, Object.assign(new Error("Access denied for user 'sds'@'10.9.8.7' (using password: YES)"), { errno: 1045, code: 'ER_ACCESS_DENIED_ERROR' }), /^Target database connection failed \(1045\): Access denied for user 'sds'@'\(address\)'/],
  ])('%s', (_, dialect, error, expected) => {
    const text = describeFailure(error, dialect);
    expect(text).toMatch(expected);
    expect(text).toMatch(/live data was left as it was$/);
    expect(text).not.toMatch(/10\.1\.2\.3|5433|10\.9\.8\.7/);
  });

  it('keeps other failures as they are, with credentials scrubbed', () => {
    expect(describeFailure(new Error('relation "x" does not exist'), postgresDialect)).toBe('relation "x" does not exist');
    expect(describeFailure(new Error('cannot use postgres://me:hunter2@db/x'))).toBe('cannot use postgres://***@db/x');
  });
});

describe('JobProgress', () => {
  it('writes the events queued before close() by the time it resolves, and none recorded after', async () => {
    const written: string[] = [];
    const slow = () => new Promise<void>((resolve) => setTimeout(resolve, 20));
    const jobs = {
      addEvent: async (_job: unknown, type: string) => {
        await slow();
        written.push(type);
      },
      progress: async () => {
        await slow();
        written.push('totals');
      },
    } as unknown as JobStore;
    const progress = new JobProgress({ id: 'job' } as GenerationJob, jobs, 0);
    progress.record({ type: 'entity.started', entity: 'users', rowsPlanned: 10 });
    progress.record({ type: 'entity.progress', entity: 'users', rowsPlanned: 10, rowsWritten: 5 });
    await progress.close();
    expect(written).toEqual(['entity.started', 'totals', 'entity.progress', 'totals']);
    progress.record({ type: 'entity.progress', entity: 'users', rowsPlanned: 10, rowsWritten: 8 });
    await new Promise((resolve) => setTimeout(resolve, 60));
    expect(written).toHaveLength(4);
  });
});
