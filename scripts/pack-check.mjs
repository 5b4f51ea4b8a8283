#!/usr/bin/env node
/**
 * What installing the package runs and weighs: packs it (`npm pack`, as published) and fails when
 * - its package.json has a script npm or another package manager runs when an app installs it
 *   (`preinstall`, `install`, `postinstall`, `prepare`, and `prepack` / `postpack`, which run when
 *   a dependency is installed from git): apps that allow only listed install scripts warn about
 *   it, and the package needs none (dist/ is built before publishing, `prepublishOnly`);
 * - it holds a source map, or a file that points to one (`sourceMappingURL`): maps were most of
 *   the package's size, and a pointer to a missing map makes bundlers and debuggers warn.
 * Prints the packed and unpacked sizes and the largest files. Part of `npm run test:dist`.
 */
import { readFileSync } from 'node:fs';
import path from 'node:path';
import { npmPack, unpackPackage } from './lib/package.mjs';
import { withTempDir } from './lib/process.mjs';

/** The lifecycle scripts that run in an app's install of this package. */
const INSTALL_SCRIPTS = ['preinstall', 'install', 'postinstall', 'prepare', 'prepack', 'postpack'];

const kB = (bytes) => `${(bytes / 1000).toFixed(1)} kB`;

/** Every problem of the unpacked package in `dir`, given npm's list of its files. */
function packProblems(dir, files) {
  const problems = [];
  const pkg = JSON.parse(readFileSync(path.join(dir, 'package.json'), 'utf8'));
  for (const name of INSTALL_SCRIPTS) {
    if (pkg.scripts?.[name] !== undefined) {
      problems.push(`package.json has an install-time script "${name}": ${pkg.scripts[name]}`);
    }
  }
  for (const file of files) {
    if (file.path.endsWith('.map')) problems.push(`a source map is packed: ${file.path}`);
    else if (/\.(c|m)?js$|\.d\.(c|m)?ts$/.test(file.path)) {
      const text = readFileSync(path.join(dir, file.path), 'utf8');
      if (/^\/\/# sourceMappingURL=/m.test(text)) problems.push(`${file.path} points to a source map`);
    }
  }
  return problems;
}

async function main() {
  const problems = await withTempDir('mf-pack-check-', async (tmp) => {
    const info = npmPack(tmp);
    const dir = unpackPackage(path.join(tmp, info.filename), tmp);
    const largest = [...info.files].sort((a, b) => b.size - a.size).slice(0, 5);
    console.log(
      `packed ${kB(info.size)}, unpacked ${kB(info.unpackedSize)}, ${info.entryCount} files; largest: ${largest
        .map((f) => `${f.path} ${kB(f.size)}`)
        .join(', ')}`,
    );
    return packProblems(dir, info.files);
  });
  for (const problem of problems) console.log(`FAIL ${problem}`);
  if (problems.length === 0) console.log('ok   no install-time script, no source map');
  process.exitCode = problems.length === 0 ? 0 : 1;
}

await main();
