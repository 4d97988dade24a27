import { mount } from '../lib/mount';
import { router } from './router';
import '../styles.css';
import './portal.css';

mount(router);
