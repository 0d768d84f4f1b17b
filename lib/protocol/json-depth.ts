/**
 * How deep JSON may nest. JSON.parse takes any depth, but JSON.stringify, zod and every
 * recursive reader after it blow the stack somewhere in the low thousands — so a deep value
 * that got in would fail far from where it came in. Input is refused at the edge (a 400 that
 * names the field), and an event that nests too deep is not stored as is.
 */
export const MAX_JSON_DEPTH = 64;

/** Events wrap tool arguments a few levels down (llm_call.message.parts[i].args): room for that. */
export const MAX_EVENT_DEPTH = MAX_JSON_DEPTH + 16;

/** What parseJsonWithin found wrong: not JSON (the parser's words), or too deep (the path to where). */
export type JsonProblem =
  { ok: false; syntax: string; tooDeep?: undefined } | { ok: false; tooDeep: string; syntax?: undefined };

/**
 * JSON.parse with the depth limit: every JSON the server reads from outside (a request body,
 * an imported JSONL line, an OTLP trace) comes in through here, so none can reach a schema or
 * a recursive reader deeper than it can walk.
 */
export function parseJsonWithin(
  text: string,
  maxDepth: number = MAX_JSON_DEPTH,
): { ok: true; value: unknown } | JsonProblem {
  let value: unknown;
  try {
    value = JSON.parse(text) as unknown;
  } catch (error) {
    return { ok: false, syntax: (error as Error).message };
  }
  const tooDeep = findTooDeep(value, maxDepth);
  return tooDeep === undefined ? { ok: true, value } : { ok: false, tooDeep };
}

/**
 * The path to the first place `value` nests deeper than `maxDepth` objects/arrays, or
 * undefined when it does not. Iterative, so a value far too deep to stringify is still
 * measured; stops at the first offender.
 */
export function findTooDeep(value: unknown, maxDepth: number = MAX_JSON_DEPTH): string | undefined {
  // Almost every value is shallow enough: answer that with a walk that allocates nothing
  // (its recursion is bounded by maxDepth), and build paths only for one that is not.
  if (!nestsDeeper(value, maxDepth)) return undefined;
  const stack: Node[] = [{ value, depth: 0 }];
  while (stack.length > 0) {
    const node = stack.pop()!;
    if (typeof node.value !== 'object' || node.value === null) continue;
    const depth = node.depth + 1;
    if (depth > maxDepth) return formatPath(pathOf(node));
    if (Array.isArray(node.value)) {
      node.value.forEach((child: unknown, index) =>
        stack.push({ value: child, depth, key: index, parent: node }),
      );
    } else {
      for (const [key, child] of Object.entries(node.value))
        stack.push({ value: child, depth, key, parent: node });
    }
  }
  return undefined;
}

/** True when `value` holds an object or array more than `remaining` levels down (itself counting as one). */
function nestsDeeper(value: unknown, remaining: number): boolean {
  if (typeof value !== 'object' || value === null) return false;
  if (remaining === 0) return true;
  if (Array.isArray(value)) {
    for (const item of value as unknown[]) if (nestsDeeper(item, remaining - 1)) return true;
    return false;
  }
  const record = value as Record<string, unknown>;
  for (const key of Object.keys(record)) if (nestsDeeper(record[key], remaining - 1)) return true;
  return false;
}

/** One value on the walk; the path is rebuilt from parents only when it is needed. */
interface Node {
  value: unknown;
  depth: number;
  key?: string | number;
  parent?: Node;
}

function pathOf(node: Node): (string | number)[] {
  const path: (string | number)[] = [];
  for (let n: Node | undefined = node; n?.key !== undefined; n = n.parent) path.push(n.key);
  return path.reverse();
}

/** `config.faults.rules.0.when`, shortened in the middle when a path is itself absurdly long. */
function formatPath(path: readonly (string | number)[]): string {
  if (path.length === 0) return '(root)';
  const parts = path.map(String);
  if (parts.length <= 12) return parts.join('.');
  return [...parts.slice(0, 6), `…(${parts.length - 10} levels)…`, ...parts.slice(-4)].join('.');
}
