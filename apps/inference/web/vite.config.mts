import { webConfig } from '../../../libs/ui/vite.config.mjs';

export default webConfig('inference');
