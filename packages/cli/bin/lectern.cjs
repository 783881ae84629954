#!/usr/bin/env node
// The bundle is built by build.mjs (run by `npm ci` through the root `prepare` script).
require('../../../dist/lectern.cjs');
