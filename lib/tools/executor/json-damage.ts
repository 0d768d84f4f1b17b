/**
 * What is wrong with argument text that does not parse, in words: the repair itself is
 * jsonrepair's, this only names the damage it had to mend (for the arg_repair event). One pass
 * over the text, outside double-quoted strings.
 */
export function describeJsonDamage(text: string): string[] {
  const found = new Set<string>();
  const stack: string[] = [];
  let quote: '"' | "'" | null = null;
  let escaped = false;
  for (let i = 0; i < text.length; i++) {
    const ch = text[i]!;
    if (quote) {
      if (escaped) escaped = false;
      else if (ch === '\\') escaped = true;
      else if (ch === quote) quote = null;
      continue;
    }
    if (ch === '"') quote = '"';
    else if (ch === "'") {
      quote = "'";
      found.add('single quotes replaced by double quotes');
    } else if (ch === '{' || ch === '[') stack.push(ch === '{' ? '}' : ']');
    else if (ch === '}' || ch === ']') {
      if (/,\s*$/.test(text.slice(0, i))) found.add('trailing comma removed');
      stack.pop();
    } else if (/[A-Za-z_$]/.test(ch) && /[{,]\s*$/.test(text.slice(0, i))) {
      const word = /^[A-Za-z_$][\w$]*/.exec(text.slice(i))![0];
      if (/^\s*:/.test(text.slice(i + word.length))) found.add('unquoted keys quoted');
      i += word.length - 1;
    }
  }
  if (quote) found.add('unterminated string closed');
  if (/,\s*$/.test(text) && stack.length > 0) found.add('trailing comma removed');
  if (stack.length > 0)
    found.add(`cut-off closing ${stack.length === 1 && stack[0] === '}' ? 'brace' : 'brackets'} added`);
  return found.size > 0 ? [...found] : ['JSON text repaired'];
}
