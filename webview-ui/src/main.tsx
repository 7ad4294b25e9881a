import { createRoot } from 'react-dom/client';
import { App } from './App';
import './main.css';
import './markdown.css';

const root = document.getElementById('root');
if (!root) throw new Error('Strata webview: #root is missing from the HTML.');
createRoot(root).render(<App />);
