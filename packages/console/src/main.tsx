import { render } from 'preact';
import { App, startEarly } from './app.tsx';
import { installEscapeCloses } from './components/escape-closes.ts';
import { installTheme } from './components/theme.tsx';
import 'uplot/dist/uPlot.min.css';
import './styles.css';

const root = document.getElementById('app');
installEscapeCloses();
installTheme();
startEarly();
if (root) render(<App />, root);
