import { fileURLToPath } from 'node:url';
import { defineConfig } from 'vite';
import react from '@vitejs/plugin-react';

// Served by Packyard at /admin (src/areas/admin-ui/routes.ts); no CDN, no inline scripts (CSP).
// Two pages, one build: the admin UI (index.html) and the customer portal (portal.html, served
// at /portal by src/areas/portal/ui-routes.ts); both load their files from /admin/assets/.
export default defineConfig({
  base: '/admin/',
  plugins: [react()],
  build: {
    outDir: 'dist',
    emptyOutDir: true,
    assetsInlineLimit: 0,
    chunkSizeWarningLimit: 450,
    rollupOptions: {
      input: {
        admin: fileURLToPath(new URL('index.html', import.meta.url)),
        portal: fileURLToPath(new URL('portal.html', import.meta.url)),
      },
    },
  },
});
