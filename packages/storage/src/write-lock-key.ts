/**
 * The PostgreSQL advisory lock every write transaction holds until it ends ('Lect' in ASCII): the
 * one writer at a time that SQLite has by nature, across every server sharing the database. A
 * module of its own, without imports, so that the tests' database helper reads it cheaply.
 */
export const WRITE_LOCK_KEY = 0x4c656374;

/**
 * SQL answering, as `answer`, whether a transaction of any server holds (`granted`) or waits for
 * (not granted) the write lock: an advisory lock on one bigint key shows in pg_locks as its high
 * and low 32 bits (classid, objid) with objsubid 1, in its database (other databases of the cluster
 * have their own lock of the same key).
 */
export const writeLockQuery = (state: 'granted' | 'not granted', answer: string): string =>
  `select exists (
      select 1 from pg_locks
      where locktype = 'advisory' and ${state} and classid = 0 and objid = ${WRITE_LOCK_KEY} and objsubid = 1
        and database = (select oid from pg_database where datname = current_database())
    ) as ${answer}`;
