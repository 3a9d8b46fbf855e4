// One SQLite connection with its prepared statements cached by their text (the planner builds the same few
// shapes of SQL over and over; preparing is the expensive part of a small query).
import Database from 'better-sqlite3';

export type Row = Record<string, unknown>;

export class Connection {
  private readonly statements = new Map<string, Database.Statement>();

  constructor(readonly db: Database.Database) {}

  statement(sql: string): Database.Statement {
    let statement = this.statements.get(sql);
    if (!statement) {
      statement = this.db.prepare(sql);
      this.statements.set(sql, statement);
    }
    return statement;
  }

  all<T = Row>(sql: string, params: unknown[] = []): T[] {
    return this.statement(sql).all(...params) as T[];
  }

  get<T = Row>(sql: string, params: unknown[] = []): T | undefined {
    return this.statement(sql).get(...params) as T | undefined;
  }

  iterate<T = Row>(sql: string, params: unknown[] = []): IterableIterator<T> {
    return this.statement(sql).iterate(...params) as IterableIterator<T>;
  }

  run(sql: string, params: unknown[] = []): Database.RunResult {
    return this.statement(sql).run(...params);
  }

  /** BEGIN IMMEDIATE, COMMIT and ROLLBACK as cached statements (exec would parse them on every write). */
  begin(): void {
    this.statement('BEGIN IMMEDIATE').run();
  }

  commit(): void {
    this.statement('COMMIT').run();
  }

  rollback(): void {
    if (this.db.inTransaction) this.statement('ROLLBACK').run();
  }

  /**
   * Runs `work` atomically: a transaction of its own, or a savepoint inside the one already open. SQLite
   * resolves a repeated savepoint name to the innermost one, so one name serves every nesting depth.
   */
  atomically<R>(work: () => R): R {
    if (!this.db.inTransaction) {
      this.begin();
      try {
        const result = work();
        this.commit();
        return result;
      } catch (err) {
        this.rollback();
        throw err;
      }
    }
    this.statement('SAVEPOINT atomically').run();
    try {
      const result = work();
      this.statement('RELEASE atomically').run();
      return result;
    } catch (err) {
      // A failure SQLite answers by rolling back the whole transaction leaves no savepoint to return to.
      if (this.db.inTransaction) {
        this.statement('ROLLBACK TO atomically').run();
        this.statement('RELEASE atomically').run();
      }
      throw err;
    }
  }

  /** Bumped by SQLite when another connection commits to the file (PRAGMA data_version). */
  dataVersion(): number {
    return this.statement('PRAGMA data_version').pluck().get() as number;
  }

  close(): void {
    this.statements.clear();
    this.db.close();
  }
}

/** SQL identifier quoting: collection and index names become table names verbatim. */
export function ident(name: string): string {
  return `"${name.replaceAll('"', '""')}"`;
}
