import { chromium } from 'playwright-core';
import { LONG_RUN_CONFIG } from './lib/bench/browser-figures';
import { CHROMIUM_ARGS, CHROMIUM_PATH } from './lib/testing/chromium-launch';
const base = 'http://127.0.0.1:3322';
let id = process.argv[2];
if (!id) {
  const r = await fetch(`${base}/api/runs`, { method: 'POST', headers: { 'content-type': 'application/json' }, body: JSON.stringify({ config: LONG_RUN_CONFIG }) });
  id = ((await r.json()) as { id: string }).id;
  await (await fetch(`${base}/api/runs/${id}/events`)).text();
  console.log('id', id);
}
const browser = await chromium.launch({ executablePath: CHROMIUM_PATH, args: [...CHROMIUM_ARGS] });
for (let i = 0; i < 3; i++) {
  const ctx = await browser.newContext();
  const page = await ctx.newPage();
  await page.addInitScript(`window.__frames=[];new PerformanceObserver(l=>{for(const e of l.getEntries())window.__frames.push({start:e.startTime,d:e.duration,scripts:(e.scripts||[]).map(s=>[s.sourceURL.slice(-30),s.invoker,Math.round(s.duration)])})}).observe({type:'long-animation-frame',buffered:true});
  const w=new MutationObserver(()=>{if(!document.querySelector('[data-testid="terminate-banner"]'))return;w.disconnect();requestAnimationFrame(()=>setTimeout(()=>performance.mark('painted'),0))});document.addEventListener('DOMContentLoaded',()=>w.observe(document.body,{childList:true,subtree:true}));`);
  await page.goto(`${base}/runs/${id}`);
  await page.waitForFunction(`performance.getEntriesByName('painted').length>0`, undefined, { timeout: 60000 });
  await page.waitForTimeout(300);
  const out = await page.evaluate(`(()=>({painted:performance.getEntriesByName('painted')[0].startTime, dcl: performance.timing.domContentLoadedEventEnd-performance.timing.navigationStart,
    res: performance.getEntriesByType('resource').filter(r=>r.name.includes('/api/')).map(r=>[r.name.slice(-40),Math.round(r.startTime),Math.round(r.responseStart),Math.round(r.responseEnd), r.transferSize]),
    frames: window.__frames.filter(f=>f.d>50).map(f=>[Math.round(f.start),Math.round(f.d),JSON.stringify(f.scripts)])}))()`);
  console.log(JSON.stringify(out, null, 1));
  await ctx.close();
}
await browser.close();
