// The default theme, with the few rules of custom.css that keep every page readable at 1280 px.
import DefaultTheme from 'vitepress/theme'
import './custom.css'

export default DefaultTheme
