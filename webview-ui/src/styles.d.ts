// Stylesheets are imported for their side effect only: esbuild bundles them into dist/webview/main.css.
// TypeScript 6 checks side-effect imports (`noUncheckedSideEffectImports` is on by default), so it needs to know them.
declare module '*.css';
