#!/usr/bin/env node
// `npm start`: builds whatever is missing or stale, then runs the whole product in one process.
const { execFileSync } = require('node:child_process');
const fs = require('node:fs');
const path = require('node:path');

const root = path.resolve(__dirname, '..', '..', '..');
const run = (cmd, args) => execFileSync(cmd, args, { cwd: root, stdio: 'inherit' });

// tsc -b is incremental: it only recompiles what changed since the last build.
run(process.execPath, [require.resolve('typescript/bin/tsc', { paths: [root] }), '-b', 'services/embedded']);
if (!fs.existsSync(path.join(root, 'web', 'dist', 'index.html'))) {
  console.log('Building the web app (first start only)...');
  run('npm', ['run', 'build', '-w', 'web']);
}
require(path.join(root, 'services', 'embedded', 'dist', 'main.js'));
