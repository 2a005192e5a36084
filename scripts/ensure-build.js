#!/usr/bin/env node
// Builds dist/ when it is missing or older than src/ or proto/, so `npm run keys` and the
// migration scripts work straight from a fresh clone. In an image without src/ it does nothing.
const { existsSync, readdirSync, statSync } = require('node:fs');
const { join } = require('node:path');
const { execSync } = require('node:child_process');

const root = join(__dirname, '..');
const marker = join(root, 'dist', 'main.js');

function newest(dir) {
  let latest = 0;
  for (const entry of readdirSync(dir, { withFileTypes: true })) {
    const path = join(dir, entry.name);
    latest = Math.max(latest, entry.isDirectory() ? newest(path) : statSync(path).mtimeMs);
  }
  return latest;
}

if (!existsSync(join(root, 'src'))) process.exit(0);
const built = existsSync(marker) ? statSync(marker).mtimeMs : 0;
if (built < Math.max(newest(join(root, 'src')), newest(join(root, 'proto')))) {
  process.stderr.write('Building Switchboard (dist/ is missing or stale)...\n');
  execSync('npx nest build', { cwd: root, stdio: ['ignore', 'ignore', 'inherit'] });
}
