/**
 * The PostgreSQL advisory lock every write transaction holds until it ends ('Lect' in ASCII): the
 * one writer at a time that SQLite has by nature, across every server sharing the database. A
 * module of its own, without imports, so that the tests' database helper reads it cheaply.
 */
export const WRITE_LOCK_KEY = 0x4c656374;
