import { mount } from './lib/mount';
import { router } from './router';
import './styles.css';

mount(router);
