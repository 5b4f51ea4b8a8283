import { readdirSync, readFileSync } from 'node:fs';
import { describe, expect, it } from 'vitest';

/** The parts of scripts/readme-blocks.mjs under test (a script without declarations). */
interface Directives {
  uses: string[];
  with: string | undefined;
  runner: 'node' | 'vitest';
  typecheckOnly: boolean;
}
interface Block {
  file: string;
  line: number;
  heading: string;
  code: string;
  directives: Directives;
}
interface ReadmeBlocks {
  markdownFiles(root?: string): string[];
  extractBlocks(markdown: string, name?: string): Block[];
  parseDirectives(line: string, where: number, name?: string): Directives;
  configurationTableOptions(markdown: string): string[];
  blockModule(block: Block): string;
}

const script = (await import('../scripts/readme-blocks.mjs' as string)) as ReadmeBlocks;

const fence = '```';
const sample = [
  '# Title', // 1
  '', // 2
  `${fence}sh`, // 3
  '# not a heading', // 4
  fence, // 5
  '## Section', // 6
  '', // 7
  '<!-- readme: uses=client,order with=returns -->', // 8
  '', // 9
  `${fence}ts`, // 10
  'const a = 1;', // 11
  `${fence}js`, // 12: inside the block, not a fence of its own
  fence, // 13
  '', // 14
  `${fence}typescript`, // 15
  'const b = 2;', // 16
  `${fence}`, // 17
  '<!-- readme: runner=vitest typecheck-only -->', // 18
  `${fence}ts`, // 19
  fence, // 20
].join('\n');

describe('readme-blocks extractor', () => {
  it('finds the ts blocks with the line of their fence, their heading and their directives', () => {
    const blocks = script.extractBlocks(sample);
    expect(blocks.map((b) => [b.line, b.heading, b.code])).toEqual([
      [10, 'Section', `const a = 1;\n${fence}js`],
      [15, 'Section', 'const b = 2;'],
      [19, 'Section', ''],
    ]);
    expect(blocks[0]?.directives).toEqual({
      uses: ['client', 'order'],
      with: 'returns',
      runner: 'node',
      typecheckOnly: false,
    });
    // A directive belongs to the block right after it only.
    expect(blocks[1]?.directives).toEqual({
      uses: [],
      with: undefined,
      runner: 'node',
      typecheckOnly: false,
    });
    expect(blocks[2]?.directives).toMatchObject({ runner: 'vitest', typecheckOnly: true });
  });

  it('refuses an unknown directive, an unknown fixture and an unclosed fence', () => {
    expect(() => script.parseDirectives('<!-- readme: skip -->', 7)).toThrow(
      /README.md:7: unknown readme directive skip/,
    );
    expect(() => script.parseDirectives('<!-- readme: with=nothing -->', 7)).toThrow(/with=nothing/);
    expect(() => script.parseDirectives('<!-- readme: runner=deno -->', 7)).toThrow(/runner=deno/);
    expect(() => script.parseDirectives('<!-- readme: runner=vitest with=returns -->', 7)).toThrow(
      /does not apply to runner=vitest/,
    );
    expect(() => script.extractBlocks(`# T\n${fence}ts\nconst a = 1;\n`)).toThrow(
      /README.md:2: .*never closed/,
    );
  });

  it('writes a module whose line n + 1 is the README line fence + n', () => {
    const [block] = script.extractBlocks(sample);
    const lines = script.blockModule(block!).split('\n');
    expect(lines[0]).toBe("import { client, order } from './prelude.js';");
    expect(lines[1]).toBe('const a = 1;');
    const plain = script.blockModule({
      ...block!,
      directives: { ...block!.directives, uses: [], with: undefined },
    });
    expect(plain.split('\n')[0]).toBe('// README.md:10');
    const served = script.blockModule({
      ...block!,
      directives: { ...block!.directives, with: 'express-webhook' },
    });
    expect(served.trimEnd().split('\n').at(-1)).toBe('export { app };');
  });

  it('reads the option names of the configuration table, and only of that table', () => {
    const markdown = [
      '## Configuration',
      '| option | default | meaning |',
      '| --- | --- | --- |',
      '| `apiToken` | env | the token |',
      '| `logLevel` | `warn` | `a \\| b` |',
      '## Errors',
      '| `APIError` | non-2xx |',
    ].join('\n');
    expect(script.configurationTableOptions(markdown)).toEqual(['apiToken', 'logLevel']);
  });

  it('names the Markdown file in its messages and modules', () => {
    expect(() => script.extractBlocks(`# T\n${fence}ts\n`, 'docs/webhooks.md')).toThrow(
      /docs\/webhooks.md:2: .*never closed/,
    );
    const [block] = script.extractBlocks(`# T\n${fence}ts\nconst a = 1;\n${fence}\n`, 'docs/pagination.md');
    expect(block?.file).toBe('docs/pagination.md');
    expect(script.blockModule(block!).split('\n')[0]).toBe('// docs/pagination.md:2');
  });

  it('reads the client options table under `## Client options` too, up to the end of the file', () => {
    const markdown = ['# Configuration', '## Client options', '| `timeout` | `60000` | per attempt |'].join(
      '\n',
    );
    expect(script.configurationTableOptions(markdown)).toEqual(['timeout']);
  });

  it('checks README.md and every guide in docs/', () => {
    const files = script.markdownFiles();
    const guides = readdirSync(new URL('../docs/', import.meta.url)).filter((name) => name.endsWith('.md'));
    expect(guides.length).toBeGreaterThanOrEqual(11);
    expect(files).toEqual(['README.md', ...guides.map((name) => `docs/${name}`).sort()]);
    for (const file of files) {
      const markdown = readFileSync(new URL(`../${file}`, import.meta.url), 'utf8');
      expect(() => script.extractBlocks(markdown, file), file).not.toThrow();
    }
  });

  it('parses the README and the guides themselves', () => {
    const read = (file: string) => readFileSync(new URL(`../${file}`, import.meta.url), 'utf8');
    const readme = read('README.md');
    expect(script.extractBlocks(readme).length).toBeGreaterThanOrEqual(5);
    expect(script.configurationTableOptions(readme)).toContain('rateLimit');
    expect(script.configurationTableOptions(read('docs/configuration.md'))).toContain('rateLimit');
    const all = script.markdownFiles().flatMap((file) => script.extractBlocks(read(file), file));
    expect(all.length).toBeGreaterThan(30);
  });
});
