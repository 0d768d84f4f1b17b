import path from 'node:path';
import { build } from 'esbuild';
import zlib from 'node:zlib';
const root = process.cwd();
const { metafile, outputFiles } = await build({
  entryPoints: [path.join(root, process.argv[2] ?? 'app/page.tsx')], bundle: true, write: false, metafile: true, splitting: true, format: 'esm', minify: true,
  outdir: path.join(root, '.first-load'), platform: 'browser', jsx: 'automatic', tsconfig: path.join(root, 'tsconfig.json'),
  external: ['react', 'react-dom', 'next', 'next/*', 'react/*', 'react-dom/*'], loader: { '.css': 'empty' }, logLevel: 'silent',
  define: { 'process.env.NODE_ENV': '"production"' },
});
const entry = Object.keys(metafile.outputs).find(o => metafile.outputs[o].entryPoint);
// static closure of output chunks
const seen = new Set([entry]); const q=[entry];
for (let f=q.shift(); f; f=q.shift()) for (const i of metafile.outputs[f].imports) if (i.kind!=='dynamic-import' && !i.external && !seen.has(i.path)) { seen.add(i.path); q.push(i.path); }
let total=0; const byInput = {};
for (const o of seen) { const out = outputFiles.find(f=>f.path.endsWith(o.replace(/^.*\.first-load/, ''))); total += zlib.gzipSync(out.contents).length;
  for (const [inp, v] of Object.entries(metafile.outputs[o].inputs)) { const key = inp.includes('node_modules') ? inp.replace(/.*node_modules\/((@[^/]+\/)?[^/]+).*/, 'npm:$1') : inp; byInput[key]=(byInput[key]||0)+v.bytesInOutput; } }
console.log('gzip static closure', (total/1024).toFixed(1), 'kB', seen.size, 'chunks');
console.log(Object.entries(byInput).sort((a,b)=>b[1]-a[1]).slice(0,40).map(([k,v])=>`${(v/1024).toFixed(1)}\t${k}`).join('\n'));
