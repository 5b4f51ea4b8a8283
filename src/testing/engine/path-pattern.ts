/**
 * The path matcher of injected faults: a regular expression (JavaScript syntax) run by the mock's
 * own linear-time matcher, never by the JavaScript `RegExp` engine, so that no pattern — say
 * `^(a+)+$` against a long path of `a`s — can block the event loop by backtracking.
 *
 * The pattern is compiled to a Thompson NFA and simulated one input character at a time with a set
 * of states (no backtracking): a test costs at most about `(path length + 1) × program size` steps,
 * and is cut off at {@link MAX_MATCH_STEPS} (the path then counts as not matching).
 *
 * Supported (what a path pattern needs): literals and escaped punctuation, `.`, classes `[...]` /
 * `[^...]` with ranges, `\d \D \w \W \s \S`, `\n \r \t \f \v \0 \xHH \uHHHH`, anchors `^ $`, word
 * boundaries `\b \B`, groups `(...)`, `(?:...)`, `(?<name>...)`, alternation `|`, quantifiers
 * `* + ? {n} {n,} {n,m}` (lazy or not: only whether the path matches counts), and the flags
 * `d g i m s u y` (`g` and `d` change nothing; `y` anchors the match at the start of the path).
 * Refused with a `TypeError`: backreferences, lookahead / lookbehind, `\p{…}`, `\c`, other escaped
 * letters, the `v` flag, patterns over {@link MAX_PATTERN_LENGTH} characters, programs over
 * {@link MAX_PROGRAM_SIZE} instructions (large `{n,m}` counts) and patterns whose compilation
 * would take over {@link MAX_COMPILE_WORK} steps (nested counts multiply, and an empty group costs
 * a step though it emits nothing: `(?:(?:){10000}){10000}`) — checked on the tree, before compiling.
 *
 * Longer than most files (about 440 lines) on purpose: the parser, the compiler and the simulator
 * of one small regular-expression engine belong together.
 */

/** The longest pattern source accepted. */
export const MAX_PATTERN_LENGTH = 1000;
/** The most NFA instructions a pattern may compile to (`{n,m}` repeats its operand). */
export const MAX_PROGRAM_SIZE = 10_000;
/**
 * The most steps compiling a pattern may take: one per node of the tree, once per copy that `{n,m}`
 * makes of it (nested counts multiply; empty groups count). Computed before compiling, so that no
 * pattern — not even one that emits no instruction — can keep the compiler busy.
 */
export const MAX_COMPILE_WORK = 100_000;
/** The most steps one test may take; past it the path counts as not matching. */
export const MAX_MATCH_STEPS = 1_000_000;

type CharTest = (c: number) => boolean;
type AssertKind = 'start' | 'end' | 'word' | 'not_word';

type Node =
  | { t: 'char'; test: CharTest }
  | { t: 'assert'; kind: AssertKind }
  | { t: 'cat'; items: Node[] }
  | { t: 'alt'; options: Node[] }
  | { t: 'rep'; node: Node; min: number; max: number };

type Instruction =
  | { op: 'char'; test: CharTest }
  | { op: 'split'; x: number; y: number }
  | { op: 'jmp'; x: number }
  | { op: 'assert'; kind: AssertKind }
  | { op: 'match' };

const SUPPORTED_FLAGS = /^[dgimsuy]*$/;

function refuse(message: string): never {
  throw new TypeError(`path pattern: ${message}`);
}

const isDigit: CharTest = (c) => c >= 48 && c <= 57;
const isWord: CharTest = (c) =>
  (c >= 48 && c <= 57) || (c >= 65 && c <= 90) || (c >= 97 && c <= 122) || c === 95;
const SPACES = new Set([9, 10, 11, 12, 13, 32, 0xa0, 0x1680, 0x2028, 0x2029, 0x202f, 0x205f, 0x3000, 0xfeff]);
const isSpace: CharTest = (c) => SPACES.has(c) || (c >= 0x2000 && c <= 0x200a);
const isLineTerminator: CharTest = (c) => c === 10 || c === 13 || c === 0x2028 || c === 0x2029;
const not =
  (test: CharTest): CharTest =>
  (c) =>
    !test(c);
const CLASS_ESCAPES: Record<string, CharTest> = {
  d: isDigit,
  D: not(isDigit),
  w: isWord,
  W: not(isWord),
  s: isSpace,
  S: not(isSpace),
};
const CONTROL_ESCAPES: Record<string, number> = { n: 10, r: 13, t: 9, f: 12, v: 11 };

/** Recursive-descent parser of the supported syntax (nesting is bounded by the pattern length). */
class Parser {
  #pos = 0;
  readonly #src: string;
  readonly #dotAll: boolean;

  constructor(source: string, dotAll: boolean) {
    this.#src = source;
    this.#dotAll = dotAll;
  }

  parse(): Node {
    const node = this.#alternation();
    if (this.#pos < this.#src.length) refuse(`unexpected '${this.#src[this.#pos]}'`);
    return node;
  }

  #peek(): string | undefined {
    return this.#src[this.#pos];
  }

  #alternation(): Node {
    const options = [this.#sequence()];
    while (this.#peek() === '|') {
      this.#pos += 1;
      options.push(this.#sequence());
    }
    return options.length === 1 ? (options[0] as Node) : { t: 'alt', options };
  }

  #sequence(): Node {
    const items: Node[] = [];
    for (let c = this.#peek(); c !== undefined && c !== '|' && c !== ')'; c = this.#peek()) {
      const atom = this.#atom();
      items.push(this.#quantified(atom));
    }
    return { t: 'cat', items };
  }

  #quantified(atom: Node): Node {
    const c = this.#peek();
    let min: number;
    let max: number;
    if (c === '*') [min, max] = [0, Number.POSITIVE_INFINITY];
    else if (c === '+') [min, max] = [1, Number.POSITIVE_INFINITY];
    else if (c === '?') [min, max] = [0, 1];
    else if (c === '{') {
      const m = /^\{(\d+)(,(\d*))?\}/.exec(this.#src.slice(this.#pos));
      if (!m) return atom; // a literal '{' (atom() reads it next time)
      min = Number(m[1]);
      max = m[2] === undefined ? min : m[3] === '' ? Number.POSITIVE_INFINITY : Number(m[3]);
      if (max < min) refuse('numbers out of order in {} quantifier');
      if (min > MAX_PROGRAM_SIZE || (Number.isFinite(max) && max > MAX_PROGRAM_SIZE)) {
        refuse(`a {} count over ${MAX_PROGRAM_SIZE}`);
      }
      this.#pos += m[0].length - 1;
    } else return atom;
    this.#pos += 1;
    if (this.#peek() === '?') this.#pos += 1; // lazy: same language
    if (atom.t === 'assert') refuse('a quantified assertion');
    return { t: 'rep', node: atom, min, max };
  }

  #atom(): Node {
    const c = this.#src[this.#pos] as string;
    this.#pos += 1;
    switch (c) {
      case '^':
        return { t: 'assert', kind: 'start' };
      case '$':
        return { t: 'assert', kind: 'end' };
      case '.':
        return { t: 'char', test: this.#dotAll ? () => true : not(isLineTerminator) };
      case '[':
        return { t: 'char', test: this.#class() };
      case '\\':
        return this.#escape();
      case '(': {
        if (this.#peek() === '?') {
          const rest = this.#src.slice(this.#pos);
          const named = /^\?<([A-Za-z_$][\w$]*)>/.exec(rest);
          if (rest.startsWith('?:')) this.#pos += 2;
          else if (named) this.#pos += named[0].length;
          else refuse('lookahead and lookbehind are not supported');
        }
        const inner = this.#alternation();
        if (this.#peek() !== ')') refuse('unterminated group');
        this.#pos += 1;
        return inner;
      }
      case '*':
      case '+':
      case '?':
        return refuse(`nothing to repeat before '${c}'`);
      default:
        return literal(c.charCodeAt(0));
    }
  }

  #escape(): Node {
    const c = this.#src[this.#pos];
    if (c === 'b' || c === 'B') {
      this.#pos += 1;
      return { t: 'assert', kind: c === 'b' ? 'word' : 'not_word' };
    }
    return { t: 'char', test: this.#escapedChar(false) };
  }

  /** After a `\`: the test of the escaped character (or class escape). */
  #escapedChar(inClass: boolean): CharTest {
    const c = this.#src[this.#pos];
    if (c === undefined) return refuse('\\ at end of pattern');
    this.#pos += 1;
    const classEscape = CLASS_ESCAPES[c];
    if (classEscape) return classEscape;
    const control = CONTROL_ESCAPES[c];
    if (control !== undefined) return (x) => x === control;
    if (inClass && c === 'b') return (x) => x === 8;
    if (c === '0' && !isDigit(this.#src.charCodeAt(this.#pos))) return (x) => x === 0;
    if (c === 'x' || c === 'u') {
      const hex = c === 'x' ? 2 : 4;
      const digits = this.#src.slice(this.#pos, this.#pos + hex);
      if (digits.length === hex && /^[0-9a-fA-F]+$/.test(digits)) {
        this.#pos += hex;
        const code = Number.parseInt(digits, 16);
        return (x) => x === code;
      }
      return refuse(`unsupported escape \\${c}`);
    }
    if (/[1-9]/.test(c) || c === 'k') return refuse('backreferences are not supported');
    if (/[A-Za-z0-9]/.test(c)) return refuse(`unsupported escape \\${c}`);
    const code = c.charCodeAt(0);
    return (x) => x === code;
  }

  /** After a `[`: a class, up to its `]`. */
  #class(): CharTest {
    const negated = this.#peek() === '^';
    if (negated) this.#pos += 1;
    const parts: CharTest[] = [];
    for (;;) {
      const c = this.#peek();
      if (c === undefined) refuse('unterminated character class');
      if (c === ']') break;
      const start = this.#classAtom();
      if (
        this.#peek() === '-' &&
        this.#src[this.#pos + 1] !== ']' &&
        this.#src[this.#pos + 1] !== undefined
      ) {
        this.#pos += 1;
        const end = this.#classAtom();
        if (start.code === undefined || end.code === undefined) refuse('a class escape in a range');
        const [from, to] = [start.code, end.code];
        if (from > to) refuse('range out of order in character class');
        parts.push((x) => x >= from && x <= to);
      } else parts.push(start.test);
    }
    this.#pos += 1;
    const test: CharTest = (x) => parts.some((p) => p(x));
    return negated ? not(test) : test;
  }

  /** One member of a class: a character (with its code) or a class escape. */
  #classAtom(): { test: CharTest; code: number | undefined } {
    const c = this.#src[this.#pos] as string;
    this.#pos += 1;
    if (c !== '\\') {
      const code = c.charCodeAt(0);
      return { test: (x) => x === code, code };
    }
    const escaped = this.#src[this.#pos] as string;
    const test = this.#escapedChar(true);
    if (CLASS_ESCAPES[escaped]) return { test, code: undefined };
    // The escape stood for one character: find its code by testing the few candidates it names.
    const code = singleCode(escaped, this.#src.slice(0, this.#pos));
    return { test, code };
  }
}

/** The code of a one-character escape `\<escaped>…` whose text ends `before`. */
function singleCode(escaped: string, before: string): number {
  if (CONTROL_ESCAPES[escaped] !== undefined) return CONTROL_ESCAPES[escaped];
  if (escaped === 'b') return 8;
  if (escaped === '0') return 0;
  if (escaped === 'x') return Number.parseInt(before.slice(-2), 16);
  if (escaped === 'u') return Number.parseInt(before.slice(-4), 16);
  return escaped.charCodeAt(0);
}

function literal(code: number): Node {
  return { t: 'char', test: (x) => x === code };
}

/**
 * The steps {@link compile} would take on `node` (one per node visited, `{n,m}` visiting its operand
 * once per copy), capped just over {@link MAX_COMPILE_WORK} so the product cannot grow unbounded.
 * Recursion is bounded by the nesting, itself bounded by the pattern length.
 */
function compileWork(node: Node): number {
  const cap = MAX_COMPILE_WORK + 1;
  switch (node.t) {
    case 'char':
    case 'assert':
      return 1;
    case 'cat':
    case 'alt': {
      let work = 1;
      for (const child of node.t === 'cat' ? node.items : node.options) {
        work = Math.min(cap, work + compileWork(child));
      }
      return work;
    }
    case 'rep': {
      const copies = node.min + (node.max === Number.POSITIVE_INFINITY ? 1 : node.max - node.min);
      return Math.min(cap, 1 + Math.max(1, copies) * compileWork(node.node));
    }
  }
}

/** Compiles the tree to a program (explicit size check: `{n,m}` copies its operand). */
function compile(root: Node): Instruction[] {
  if (compileWork(root) > MAX_COMPILE_WORK) {
    refuse(
      `too costly to compile: its {} counts multiply to over ${MAX_COMPILE_WORK} steps (empty groups included)`,
    );
  }
  const program: Instruction[] = [];
  const emit = (instruction: Instruction): number => {
    if (program.length >= MAX_PROGRAM_SIZE)
      refuse(`the pattern compiles to over ${MAX_PROGRAM_SIZE} instructions`);
    program.push(instruction);
    return program.length - 1;
  };
  const gen = (node: Node): void => {
    switch (node.t) {
      case 'char':
        emit({ op: 'char', test: node.test });
        return;
      case 'assert':
        emit({ op: 'assert', kind: node.kind });
        return;
      case 'cat':
        for (const item of node.items) gen(item);
        return;
      case 'alt': {
        const jumps: number[] = [];
        node.options.forEach((option, i) => {
          if (i < node.options.length - 1) {
            const split = emit({ op: 'split', x: 0, y: 0 });
            (program[split] as { x: number }).x = split + 1;
            gen(option);
            jumps.push(emit({ op: 'jmp', x: 0 }));
            (program[split] as { y: number }).y = program.length;
          } else gen(option);
        });
        for (const j of jumps) (program[j] as { x: number }).x = program.length;
        return;
      }
      case 'rep': {
        for (let i = 0; i < node.min; i += 1) gen(node.node);
        if (node.max === Number.POSITIVE_INFINITY) {
          const split = emit({ op: 'split', x: 0, y: 0 });
          (program[split] as { x: number }).x = split + 1;
          gen(node.node);
          emit({ op: 'jmp', x: split });
          (program[split] as { y: number }).y = program.length;
        } else {
          for (let i = node.min; i < node.max; i += 1) {
            const split = emit({ op: 'split', x: 0, y: 0 });
            (program[split] as { x: number }).x = split + 1;
            gen(node.node);
            (program[split] as { y: number }).y = program.length;
          }
        }
        return;
      }
    }
  };
  gen(root);
  emit({ op: 'match' });
  return program;
}

/** What one test found, and the work it took. */
export interface PatternMatch {
  matched: boolean;
  /** Instructions visited (bounded by `(path length + 1) × 2 × program size` and {@link MAX_MATCH_STEPS}). */
  steps: number;
}

/** A compiled path pattern. Throws a `TypeError` for what it does not support (see the module). */
export class PathPattern {
  /** The pattern as `RegExp#source` gives it (how `GET /__mock/faults` lists it). */
  readonly source: string;
  readonly #program: Instruction[];
  readonly #sticky: boolean;
  readonly #multiline: boolean;
  readonly #ignoreCase: boolean;

  /** `pattern`: a RegExp source, or a RegExp (or its `source` and `flags`, each read once). */
  constructor(pattern: string | Pick<RegExp, 'source' | 'flags'>) {
    const regexp = typeof pattern === 'string' ? new RegExp(pattern) : pattern;
    const { source, flags } = regexp;
    if (!SUPPORTED_FLAGS.test(flags)) refuse(`unsupported flags '${flags}' (supported: d g i m s u y)`);
    if (source.length > MAX_PATTERN_LENGTH) refuse(`longer than ${MAX_PATTERN_LENGTH} characters`);
    this.source = source;
    this.#sticky = flags.includes('y');
    this.#multiline = flags.includes('m');
    this.#ignoreCase = flags.includes('i');
    this.#program = compile(new Parser(source, flags.includes('s')).parse());
  }

  /** The number of instructions the pattern compiled to. */
  get size(): number {
    return this.#program.length;
  }

  /** Whether the pattern matches somewhere in `input` (as `RegExp#test` would). */
  test(input: string): boolean {
    return this.match(input).matched;
  }

  /** Runs the NFA over `input`, one character at a time (no backtracking). */
  match(input: string): PatternMatch {
    const program = this.#program;
    const n = input.length;
    const marks = new Int32Array(program.length).fill(-1);
    const stack: number[] = [];
    let steps = 0;
    let matched = false;
    let overBudget = false;
    const at = (pos: number): number => (pos >= 0 && pos < n ? input.charCodeAt(pos) : -1);
    const holds = (kind: AssertKind, pos: number): boolean => {
      switch (kind) {
        case 'start':
          return pos === 0 || (this.#multiline && isLineTerminator(at(pos - 1)));
        case 'end':
          return pos === n || (this.#multiline && isLineTerminator(at(pos)));
        default: {
          const boundary = isWord(at(pos - 1)) !== isWord(at(pos));
          return kind === 'word' ? boundary : !boundary;
        }
      }
    };
    /** Adds the state `pc` and every state reachable from it without input (explicit stack). */
    const add = (list: number[], start: number, pos: number): void => {
      stack.push(start);
      while (stack.length > 0) {
        const pc = stack.pop() as number;
        if (marks[pc] === pos) continue;
        marks[pc] = pos;
        steps += 1;
        const instruction = program[pc] as Instruction;
        switch (instruction.op) {
          case 'char':
            list.push(pc);
            break;
          case 'jmp':
            stack.push(instruction.x);
            break;
          case 'split':
            stack.push(instruction.y, instruction.x);
            break;
          case 'assert':
            if (holds(instruction.kind, pos)) stack.push(pc + 1);
            break;
          case 'match':
            matched = true;
            break;
        }
      }
    };
    const fold = (c: number): number[] => {
      if (!this.#ignoreCase) return [c];
      const s = String.fromCharCode(c);
      return [c, s.toLowerCase().charCodeAt(0), s.toUpperCase().charCodeAt(0)];
    };
    let current: number[] = [];
    for (let pos = 0; ; pos += 1) {
      if (!this.#sticky || pos === 0) add(current, 0, pos);
      if (matched) break;
      if (steps > MAX_MATCH_STEPS) {
        overBudget = true;
        break;
      }
      if (pos === n || (current.length === 0 && this.#sticky)) break;
      const codes = fold(input.charCodeAt(pos));
      const next: number[] = [];
      for (const pc of current) {
        steps += 1;
        const { test } = program[pc] as { test: CharTest };
        if (codes.some(test)) add(next, pc + 1, pos + 1);
      }
      current = next;
      if (matched) break;
    }
    return { matched: matched && !overBudget, steps };
  }
}
