// The type of an uploaded file, decided by its first bytes (magic numbers): the type a browser
// declares, or the extension of the name, is only a claim the content must confirm. Used by the
// document kit's attachments (kit/documents/attachments.ts); pure, no I/O.

/** The file types an attachment may have (each with its magic bytes below). */
export const FILE_TYPES = ['application/pdf', 'image/png', 'image/jpeg', 'image/webp', 'text/html'] as const;
export type FileType = (typeof FILE_TYPES)[number];

/** How people call each type in a message ('PDF, PNG ou JPEG'). */
export const FILE_TYPE_NAMES: Record<FileType, string> = {
  'application/pdf': 'PDF',
  'image/png': 'PNG',
  'image/jpeg': 'JPEG',
  'image/webp': 'WebP',
  'text/html': 'HTML',
};

const EXTENSIONS: Record<string, FileType> = {
  pdf: 'application/pdf',
  png: 'image/png',
  jpg: 'image/jpeg',
  jpeg: 'image/jpeg',
  webp: 'image/webp',
  html: 'text/html',
  htm: 'text/html',
};

/** 'PDF, PNG, JPEG, WebP ou HTML' (pt-BR list of the types' names). */
export function describeFileTypes(types: readonly FileType[]): string {
  const names = [...new Set(types.map((type) => FILE_TYPE_NAMES[type]))];
  return names.length <= 1 ? (names[0] ?? '') : `${names.slice(0, -1).join(', ')} ou ${names.at(-1)}`;
}

/** The declared type of an upload, normalized ('image/jpg' → 'image/jpeg'; none or octet-stream: from the file name's extension). */
export function declaredFileType(type: string, name: string): string {
  const base = (type.split(';')[0] ?? '').trim().toLowerCase();
  if (base === 'image/jpg' || base === 'image/pjpeg') return 'image/jpeg';
  if (base === 'application/xhtml+xml') return 'text/html';
  if (base && base !== 'application/octet-stream') return base;
  const ext = /\.([a-z0-9]+)$/i.exec(name)?.[1]?.toLowerCase() ?? '';
  return EXTENSIONS[ext] ?? base;
}

const startsWith = (bytes: Uint8Array, signature: readonly number[], at = 0) => signature.every((b, i) => bytes[at + i] === b);
const ascii = (text: string) => [...text].map((c) => c.charCodeAt(0));

/** Whether the content is of `type` by its first bytes (the declared type alone is never trusted). */
export function contentMatchesType(bytes: Uint8Array, type: FileType): boolean {
  switch (type) {
    case 'application/pdf':
      return startsWith(bytes, ascii('%PDF-'));
    case 'image/png':
      return startsWith(bytes, [0x89, 0x50, 0x4e, 0x47, 0x0d, 0x0a, 0x1a, 0x0a]);
    case 'image/jpeg':
      return startsWith(bytes, [0xff, 0xd8, 0xff]);
    case 'image/webp':
      return startsWith(bytes, ascii('RIFF')) && startsWith(bytes, ascii('WEBP'), 8);
    case 'text/html': {
      // text (no NUL in the first KB), starting with a tag, an HTML page within the first 4 KB
      const head = bytes.subarray(0, 4096);
      if (head.subarray(0, 1024).includes(0)) return false;
      const text = new TextDecoder('utf-8', { fatal: false })
        .decode(head)
        .replace(/^\uFEFF/, '')
        .trimStart();
      return text.startsWith('<') && /<html[\s>]|<!doctype\s+html/i.test(text);
    }
    default:
      return false;
  }
}

/**
 * Headers of a stored file sent back: always as an attachment (never shown in the application's
 * origin; an HTML page goes as application/octet-stream), `nosniff`, not cached, with its SHA-256.
 */
export function attachmentResponseHeaders(file: { nome: string; tipo: string; sha256?: string | null }): Record<string, string> {
  const asciiName = file.nome.replace(/[^\w.-]/g, '_');
  return {
    'Content-Type': file.tipo === 'text/html' || !(FILE_TYPES as readonly string[]).includes(file.tipo) ? 'application/octet-stream' : file.tipo,
    'Content-Disposition': `attachment; filename="${asciiName}"; filename*=UTF-8''${encodeURIComponent(file.nome)}`,
    'X-Content-Type-Options': 'nosniff',
    ...(file.sha256 ? { 'X-Content-SHA256': file.sha256 } : {}),
    'Cache-Control': 'no-store',
  };
}
