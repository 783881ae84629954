/** This build's version, shown by `lectern --version` and by `GET /about/`. */
export const LECTERN_VERSION = '0.1.0';
