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

  /** Runs `work` atomically: a transaction of its own, or a savepoint inside the one already open. */
  atomically<R>(work: () => R): R {
    return this.db.transaction(work)();
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
