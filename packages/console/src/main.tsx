import { render } from 'preact';
import { App } from './app.tsx';
import { installEscapeCloses } from './components/escape-closes.ts';
import 'uplot/dist/uPlot.min.css';
import './styles.css';

const root = document.getElementById('app');
installEscapeCloses();
if (root) render(<App />, root);
