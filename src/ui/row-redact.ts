/**
 * The live UI's redaction of the wire strings rows carry (methods, targets, ids, finding and error
 * texts): export's text rules, remembered per string, since methods and targets repeat and the rules
 * cost. Pure apart from the bounded memo.
 */
import type { RedactText } from '../session-view/to-row.js';
import { redactString, type RedactOptions } from '../transcript/redact.js';

const MEMO_MAX = 10_000;
const memos = new WeakMap<RedactOptions, Map<string, string>>();
const defaultMemo = new Map<string, string>();

/** The redaction of row strings under export's options `opts` (undefined: the default rules). */
export function rowRedactor(opts?: RedactOptions): RedactText {
  let memo = opts ? memos.get(opts) : defaultMemo;
  if (!memo) {
    memo = new Map();
    memos.set(opts!, memo);
  }
  const m = memo;
  return (text) => {
    let out = m.get(text);
    if (out === undefined) {
      out = redactString(text, opts);
      if (m.size >= MEMO_MAX) m.clear();
      m.set(text, out);
    }
    return out;
  };
}
