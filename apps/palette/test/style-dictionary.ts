import { execFile } from 'node:child_process';

const script = `
import StyleDictionary from 'style-dictionary';
let input = '';
for await (const chunk of process.stdin) input += chunk;
const sd = new StyleDictionary({
  tokens: JSON.parse(input),
  log: { verbosity: 'silent', warnings: 'disabled' },
  platforms: { css: { transformGroup: 'css', files: [{ destination: 'tokens.css', format: 'css/variables' }] } },
});
const [file] = await sd.formatPlatform('css');
process.stdout.write(String(file.output));
`;

/**
 * The CSS that Style Dictionary's css/variables format builds from the tokens. Style Dictionary
 * is ESM-only; it runs in its own Node process, as a build would run it.
 */
export function styleDictionaryCss(tokens: unknown): Promise<string> {
  return new Promise((resolve, reject) => {
    const child = execFile(
      process.execPath,
      ['--input-type=module', '-e', script],
      { cwd: __dirname },
      (error, stdout, stderr) =>
        error ? reject(new Error(stderr || error.message)) : resolve(stdout),
    );
    child.stdin?.end(JSON.stringify(tokens));
  });
}
