// Preloaded (NODE_OPTIONS=--import) by the CI run of the tests on the Node LTS: better-sqlite3 in
// node_modules carries the addon npm built for the machine's Node, which another Node major cannot
// load. This hands better-sqlite3 the addon built for the running Node (scripts/node-lts.mjs)
// instead, leaving node_modules untouched. Nothing else changes, and nothing at all when
// LECTERN_SQLITE_ADDON is unset.
import Module, { createRequire } from 'node:module';

const addon = process.env.LECTERN_SQLITE_ADDON;
if (addon) {
  const loadAddon = createRequire(import.meta.url);
  const load = Module._load;
  Module._load = function (request, parent, isMain) {
    // better-sqlite3 finds its addon with require('bindings')('better_sqlite3.node')
    if (request === 'bindings' && parent && /[\\/]better-sqlite3[\\/]/.test(parent.filename)) return () => loadAddon(addon);
    return load.call(this, request, parent, isMain);
  };
}
