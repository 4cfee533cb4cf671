/**
 * The JSON files takeover is given (--config, --state). They hold secrets (`pulumi config --json --show-secrets`), and
 * JSON.parse's messages quote the text around a mistake, so a malformed file is reported by where the mistake is
 * (line and column) and what was expected there, never by its content. jsonc-parser finds the place: it reports an
 * offset and a code, no text.
 */
import { type ParseError, parse, printParseErrorCode } from "jsonc-parser";

const PROBLEMS: Record<string, string> = {
  InvalidSymbol: "an unexpected character",
  InvalidNumberFormat: "a malformed number",
  PropertyNameExpected: "a property name was expected",
  ValueExpected: "a value was expected",
  ColonExpected: "a colon was expected",
  CommaExpected: "a comma was expected",
  CloseBraceExpected: "a closing brace was expected",
  CloseBracketExpected: "a closing bracket was expected",
  EndOfFileExpected: "the file goes on after its value",
  InvalidCommentToken: "a comment (JSON has none)",
  UnexpectedEndOfComment: "a comment that is not closed",
  UnexpectedEndOfString: "a string that is not closed",
  UnexpectedEndOfNumber: "a number that is cut short",
  InvalidUnicode: "a malformed \\u escape",
  InvalidEscapeCharacter: "a malformed escape",
  InvalidCharacter: "a control character inside a string",
};

/** `text` parsed as JSON; `what` names the input in an error (for example `--config config.json`). */
export function parseJsonInput(text: string, what: string): unknown {
  const errors: ParseError[] = [];
  parse(text, errors, { disallowComments: true, allowTrailingComma: false, allowEmptyContent: false });
  const first = errors[0];
  if (first) {
    const { line, column } = lineAndColumn(text, first.offset);
    const problem = PROBLEMS[printParseErrorCode(first.error)] ?? "a syntax error";
    throw new Error(`${what} is not JSON: ${problem} at line ${line}, column ${column} (its content is not shown: it may hold secrets)`);
  }
  try {
    // The value as JSON.parse reads it; jsonc-parser accepted the text, so this is not expected to fail.
    return JSON.parse(text);
  } catch {
    throw new Error(`${what} is not JSON (its content is not shown: it may hold secrets)`);
  }
}

/** 1-based line and column (in characters) of `offset`; a line ends at \n, \r\n or \r. */
function lineAndColumn(text: string, offset: number): { line: number; column: number } {
  const before = text.slice(0, offset);
  const lines = before.split(/\r\n|\r|\n/);
  return { line: lines.length, column: Array.from(lines[lines.length - 1] ?? "").length + 1 };
}
