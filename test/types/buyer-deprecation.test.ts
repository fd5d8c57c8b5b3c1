// `payments.get` is deprecated in favour of `buyer.get`: an editor strikes it through. What an
// editor shows comes from TypeScript's suggestion diagnostics, read here through its language service.
import { join } from 'node:path';
import ts from 'typescript';
import { describe, expect, it } from 'vitest';

const ROOT = join(import.meta.dirname, '..', '..');
const FILE = join(ROOT, 'test', 'types', '__deprecation-probe.ts');
const PROBE = `import { MerchantGateway } from 'merchant-gateway';
const gateway = new MerchantGateway({ baseUrl: 'https://gateway.test', apiKey: 'sk_test' });
export const viaPayments = gateway.payments.get('pay_1');
export const viaBuyer = gateway.buyer.get('pay_1');
`;

function suggestions(): { line: number; message: string }[] {
  const config = ts.getParsedCommandLineOfConfigFile(
    join(ROOT, 'tsconfig.json'),
    {},
    {
      ...ts.sys,
      onUnRecoverableConfigFileDiagnostic: () => {},
    },
  );
  if (config === undefined) throw new Error('tsconfig.json did not parse');
  const host: ts.LanguageServiceHost = {
    getCompilationSettings: () => config.options,
    getScriptFileNames: () => [FILE],
    getScriptVersion: () => '1',
    getScriptSnapshot: (name) => {
      const text = name === FILE ? PROBE : ts.sys.readFile(name);
      return text === undefined ? undefined : ts.ScriptSnapshot.fromString(text);
    },
    getCurrentDirectory: () => ROOT,
    getDefaultLibFileName: ts.getDefaultLibFilePath,
    fileExists: (name) => name === FILE || ts.sys.fileExists(name),
    readFile: (name) => (name === FILE ? PROBE : ts.sys.readFile(name)),
  };
  const service = ts.createLanguageService(host);
  const source = service.getProgram()?.getSourceFile(FILE);
  return service.getSuggestionDiagnostics(FILE).map((d) => ({
    line: source?.getLineAndCharacterOfPosition(d.start ?? 0).line ?? -1,
    message: ts.flattenDiagnosticMessageText(d.messageText, '\n'),
  }));
}

describe('deprecations', () => {
  it('payments.get is reported deprecated, buyer.get is not', () => {
    const deprecated = suggestions().filter((s) => /deprecated/i.test(s.message));
    expect(deprecated).toStrictEqual([
      { line: 2, message: expect.stringMatching(/'gateway.payments.get' is deprecated/) },
    ]);
  }, 120_000);
});
