import { mountApp } from './app/mount-app.tsx';

const container = document.getElementById('root');
if (!container) throw new Error('index.html has no #root element');
mountApp(container);
