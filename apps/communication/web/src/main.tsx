import { mountApp, Navigate, NotFound, resourceRoutes, Route, Routes } from '@platform/ui';
import { AppPage, AppsPage } from './apps';
import { ChannelFormPage } from './channel-form';
import { channels } from './channels';
import './communication.css';
import { DeliveriesPage, DeliveryPage } from './deliveries';
import { InboxPage } from './inbox';
import { RegistrationEditPage } from './registrations';
import { SendPage } from './send';
import { TemplateFormPage, TemplatePage, TemplatesPage } from './templates';

mountApp({
  service: 'communication',
  title: 'Communication',
  nav: [
    { to: '/channels', label: 'Channels' },
    { to: '/apps', label: 'Apps' },
    { to: '/inbox', label: 'Inbox' },
  ],
  children: (
    <Routes>
      <Route index element={<Navigate to="/channels" replace />} />
      {/* Before resourceRoutes: these forms win over its generic ones (config per provider). */}
      <Route path="channels/new" element={<ChannelFormPage />} />
      <Route path="channels/:key/edit" element={<ChannelFormPage editing />} />
      {resourceRoutes(channels)}
      <Route path="apps" element={<AppsPage />} />
      <Route path="apps/:appId" element={<AppPage />} />
      <Route path="apps/:appId/channels/:id/edit" element={<RegistrationEditPage />} />
      <Route path="apps/:appId/send" element={<SendPage />} />
      <Route path="apps/:appId/templates" element={<TemplatesPage />} />
      <Route path="apps/:appId/templates/new" element={<TemplateFormPage />} />
      <Route path="apps/:appId/templates/:name" element={<TemplatePage />} />
      <Route path="apps/:appId/templates/:name/edit" element={<TemplateFormPage editing />} />
      <Route path="apps/:appId/deliveries" element={<DeliveriesPage />} />
      <Route path="apps/:appId/deliveries/:id" element={<DeliveryPage />} />
      <Route path="inbox" element={<InboxPage />} />
      <Route path="*" element={<NotFound />} />
    </Routes>
  ),
});
