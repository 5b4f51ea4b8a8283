// After the build: the testing kit's declarations import msw's `HttpHandler` type, and msw is an
// optional peer dependency. The bundled `dist/testing.d.ts` loses the source's `@ts-ignore` above
// that import, so it is put back here: without msw the import then stays unresolved, which the
// kit's `MockHandler` type turns into `unknown`, and a consumer compiles with `skipLibCheck: false`
// whether msw is installed or not (checked by the consumer type tests).
import { readFileSync, writeFileSync } from 'node:fs';

const file = new URL('../dist/testing.d.ts', import.meta.url);
const IMPORT = /^import \{[^}]*\bHttpHandler\b[^}]*\} from 'msw';$/m;
const NOTE = '// @ts-ignore -- msw is an optional peer dependency (see MockHandler)';

const text = readFileSync(file, 'utf8');
const match = IMPORT.exec(text);
if (!match) {
  console.error("optional-peer-types: no `import { HttpHandler } from 'msw'` in dist/testing.d.ts");
  process.exit(1);
}
const before = text.slice(0, match.index);
if (!before.endsWith(`${NOTE}\n`)) {
  writeFileSync(file, `${before}${NOTE}\n${text.slice(match.index)}`);
}
if (/from 'msw'/.test(text.slice(match.index + match[0].length))) {
  console.error('optional-peer-types: dist/testing.d.ts imports msw more than once; guard every import');
  process.exit(1);
}
