// Vite's `?raw` imports (used to read styles.css in tests without Node types).
declare module '*?raw' {
  const content: string;
  export default content;
}
