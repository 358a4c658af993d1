import vela from 'vela/vite'

// `npm start` (vela serve) and `vite` run the app through the plugin; `vite build` bundles it.
export default { plugins: [vela()] }
