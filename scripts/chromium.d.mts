export declare const CANDIDATES: string[];
export declare function findChromium(): string | undefined;
export declare const CHROMIUM_ARGS: string[];
