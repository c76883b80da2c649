// Runs before every package's tests (see vitest.shared.ts). A busy 2-core CI machine runs several
// suites at once: Testing Library's async queries wait generously instead of the 1 s default.
import { createRequire } from 'node:module';
import { join } from 'node:path';
import { pathToFileURL } from 'node:url';

const requireFromPackage = createRequire(join(process.cwd(), 'package.json'));
let testingLibrary: string | undefined;
try {
  testingLibrary = requireFromPackage.resolve('@testing-library/react');
} catch {
  // a package without DOM tests
}
if (testingLibrary) {
  const { configure } = (await import(pathToFileURL(testingLibrary).href)) as typeof import('@testing-library/react');
  configure({ asyncUtilTimeout: 15_000 });
}

// In a jsdom test file, Blob, File and FormData are jsdom's, but Request and fetch are Node's. Since
// Node 22, Node's Request no longer reads a jsdom FormData's files (they arrive as empty parts named
// "blob"), so an upload a web test sends through ky would lose its bytes. A Request built with a jsdom
// FormData gets the same entries as Node's FormData and Node's File (bytes, name and type kept).
if (typeof window !== 'undefined' && typeof FormData === 'function' && typeof Request === 'function') {
  const NodeFormData = (await new Response(new URLSearchParams()).formData()).constructor as typeof FormData;
  const { File: NodeFile } = await import('node:buffer');
  if (FormData !== NodeFormData) {
    const bytesOf = (blob: Blob): Uint8Array => {
      const impl = Object.getOwnPropertySymbols(blob).find((s) => s.description === 'impl');
      const buffer = impl && (blob as unknown as Record<symbol, { _buffer?: Uint8Array }>)[impl]?._buffer;
      if (!buffer) throw new Error('vitest.setup: a jsdom Blob without its bytes (jsdom changed its Blob internals)');
      return buffer;
    };
    const toNode = (form: FormData): FormData => {
      const out = new NodeFormData();
      for (const [name, value] of form.entries()) {
        if (typeof value === 'string') out.append(name, value);
        else out.append(name, new NodeFile([bytesOf(value)], value.name, { type: value.type, lastModified: value.lastModified }) as unknown as File);
      }
      return out;
    };
    const NodeRequest = Request;
    globalThis.Request = class extends NodeRequest {
      constructor(input: RequestInfo | URL, init?: RequestInit) {
        super(input, init?.body instanceof FormData ? { ...init, body: toNode(init.body) } : init);
      }
    };
  }
}
