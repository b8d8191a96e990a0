// The lobby page's words in the chosen language (an inline script would break the CSP).
import { translatePage } from "/static/js/i18n.js";

translatePage();
