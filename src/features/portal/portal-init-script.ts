/**
 * `/portal-init.js`: a tiny blocking script in the portal page's <head> (an inline one would break
 * the `script-src 'self'` CSP) that runs before the first paint. It applies the colour theme as
 * `/theme-init.js` does on the other pages, and decides which of the page's two static copies
 * shows (portal-prerender.tsx): a project's page without a live session for it is its password
 * gate, so the address becomes the gate's at once, as the portal's history does when it starts
 * (portal-history.ts, portal-location.ts and portal-session.ts hold the same rules; the tests run
 * this script against them).
 *
 * On a project page with a live session it also asks for the page's first answers once the page's
 * first frame is drawn, so they are on their way while the portal's scripts load
 * (portal-prefetch.ts); only for a project id of the right shape, which is all the API client
 * sends (any other fails on the page without a request).
 *
 * It marks <html> with `data-portal-page`: `gate` (the gate of a complete link, two ids of the
 * right shape: the portal starts when the visitor engages with it), `gate-incomplete` (any other
 * gate address: the portal starts at once, to say the link is incomplete), `project`, or
 * `invalid` (an id the portal cannot read).
 */
import { PORTAL_PAGE_ATTRIBUTE } from './portal-copy.ts';
import { PORTAL_PREFETCH_GLOBAL, prefetchScript } from './portal-prefetch.ts';
import { portalInactivityLimitMs, portalSessionStorageKey } from './portal-session.ts';

export const PORTAL_INIT_FILE = 'portal-init.js';
export type PortalPageMark = 'gate' | 'gate-incomplete' | 'project' | 'invalid';

const MAX_FUTURE_SKEW_MS = 60 * 1000;
const MAX_ID_LENGTH = 128;

export interface PortalInitOptions {
  themeStorageKey: string;
  /** document.title of the gate (the page's own title is the project page's). */
  gateTitle: string;
}

export function portalInitScript(options: PortalInitOptions): string {
  const json = JSON.stringify;
  return `(function(){
var h=document.documentElement,p=null,s=null,page='gate',u=/^[\\da-f]{8}(?:-[\\da-f]{4}){3}-[\\da-f]{12}$/i;
try{p=localStorage.getItem(${json(options.themeStorageKey)})}catch(e){}
var d=p==='dark'||(p!=='light'&&!!window.matchMedia&&matchMedia('(prefers-color-scheme: dark)').matches);
h.classList.toggle('dark',d);h.classList.toggle('light',!d);
var m=/^\\/client\\/([^/]+)\\/project\\/([^/]+)\\/?$/i.exec(location.pathname);
if(m){
var c=null,j=null;
try{c=decodeURIComponent(m[1]).trim();j=decodeURIComponent(m[2]).trim()}catch(e){}
if(!c||!j||c.length>${MAX_ID_LENGTH}||j.length>${MAX_ID_LENGTH}){page='invalid'}else{
try{s=JSON.parse(localStorage.getItem(${json(portalSessionStorageKey)}))}catch(e){}
var a=s&&typeof s.lastActivity==='number'&&isFinite(s.lastActivity)?Date.now()-s.lastActivity:NaN;
if(s&&s.projectId===j&&s.clientId===c&&a<${portalInactivityLimitMs}&&a>-${MAX_FUTURE_SKEW_MS}){page='project';
if(u.test(j)){var w=window;w[${JSON.stringify(PORTAL_PREFETCH_GLOBAL)}]={};
requestAnimationFrame(function(){try{${prefetchScript()}}catch(e){}})}
}else{
var q=new URLSearchParams();q.set('projectId',j);q.set('clientId',c);
q.set('redirect','/client/'+encodeURIComponent(c)+'/project/'+encodeURIComponent(j));
try{history.replaceState(null,'','/client-access?'+q.toString())}catch(e){}}}
}else{
var r=new URLSearchParams(location.search);
if(r.getAll('projectId').length!==1||r.getAll('clientId').length!==1||!u.test(r.get('projectId').trim())||!u.test(r.get('clientId').trim()))page='gate-incomplete';
}
if(page.indexOf('gate')===0)document.title=${json(options.gateTitle)};
h.setAttribute(${json(PORTAL_PAGE_ATTRIBUTE)},page);
})();
`;
}
