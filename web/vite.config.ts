import { defineConfig } from 'vite';
import react from '@vitejs/plugin-react';

// Served by Packyard at /admin (src/areas/admin-ui/routes.ts); no CDN, no inline scripts (CSP).
export default defineConfig({
  base: '/admin/',
  plugins: [react()],
  build: {
    outDir: 'dist',
    emptyOutDir: true,
    assetsInlineLimit: 0,
    chunkSizeWarningLimit: 450,
  },
});
