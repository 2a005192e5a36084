import preact from '@preact/preset-vite';
import { defineConfig } from 'vite';

/** The operator console: served by the hub at /console from console/dist (no inline scripts or styles: strict CSP). */
export default defineConfig({
  base: '/console/',
  plugins: [preact()],
  build: {
    outDir: 'dist',
    emptyOutDir: true,
    sourcemap: false,
    // Keep every asset a file of its own: the hub's CSP allows no data: scripts or styles.
    assetsInlineLimit: 0,
    modulePreload: { polyfill: false },
  },
  server: {
    // `npm run dev -w console` against a hub on :8080.
    proxy: {
      '/api': 'http://127.0.0.1:8080',
      '/internal': 'http://127.0.0.1:8080',
      '/tasks': 'http://127.0.0.1:8080',
      '/health': 'http://127.0.0.1:8080',
    },
  },
});
