// js-tiktoken publishes its rank files only through package.json "exports", which the project's
// moduleResolution (node10) does not read; esbuild and tsx do. This restates their typings.
declare module 'js-tiktoken/ranks/o200k_base' {
  import type { TiktokenBPE } from 'js-tiktoken/lite';
  const ranks: TiktokenBPE;
  export default ranks;
}
