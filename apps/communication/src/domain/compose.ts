import { ApiError, badRequest, findByIdOrName, notFound } from '@platform/core';
import type { CommunicationConfig } from '../config.js';
import type {
  ChannelRow,
  CommunicationDb,
  RegistrationRow,
  RouteStep,
  SlackForm,
  TemplateRow,
} from '../database.js';
import { optedOut } from '../repositories/preferences.js';
import { registrationOf } from '../repositories/registrations.js';
import { suppressedAmong } from '../repositories/suppressions.js';
import { findTemplate } from '../repositories/templates.js';
import type { SendInput } from '../schemas/deliveries.js';
import { checkTarget } from './providers/targets.js';
import type { TemplateEngine } from './templates/render.js';

/** A send worked out: its channels in order (some skipped, and why) and its rendered message. */
export interface Composed {
  steps: RouteStep[];
  subject: string | null;
  text: string;
  html: string | null;
  slack: SlackForm | null;
  recipient: string | null;
  category: string | null;
  template: TemplateRow | null;
  locale: string | null;
}

interface Deps {
  db: CommunicationDb;
  config: CommunicationConfig;
  engine: TemplateEngine;
}

/** The channels a send names, each checked (active, the app registered and enabled on it). */
async function channelsOf(db: CommunicationDb, appId: string, body: SendInput) {
  if (body.channelId !== undefined && body.channels !== undefined)
    throw badRequest('Give channelId or channels, not both');
  const refs = body.channels ?? (body.channelId === undefined ? [] : [body.channelId]);
  if (refs.length === 0) throw badRequest('channelId (or channels) is required');
  const found: Array<{ channel: ChannelRow; registration: RegistrationRow }> = [];
  for (const ref of refs) {
    const channel = await findByIdOrName(db, 'channels', ref, 'Channel');
    if (found.some((f) => f.channel.id === channel.id))
      throw badRequest(`channels names channel ${channel.name} twice`);
    if (channel.status !== 'active')
      throw badRequest(
        `Channel ${channel.name} is disabled: set its status to active to send through it`,
      );
    const registration = await registrationOf(db, appId, channel.id);
    if (!registration)
      throw new ApiError(
        'NOT_FOUND',
        `Registration not found: app ${appId} is not registered on channel ${channel.name}`,
      );
    if (!registration.enabled)
      throw badRequest(
        `Registration ${registration.id} of app ${appId} on channel ${channel.name} is disabled`,
      );
    found.push({ channel, registration });
  }
  return found;
}

/** The message: the body's, or the template's rendered with the data (or a digest's items). */
async function contentOf(
  { db, engine }: Deps,
  appId: string,
  body: SendInput,
  digestItems?: Array<Record<string, unknown>>,
) {
  if (body.template === undefined) {
    if (body.data !== undefined || body.locale !== undefined)
      throw badRequest('data and locale go with a template');
    if (body.text === undefined) throw badRequest('text is required (or a template)');
    return {
      template: null,
      locale: null,
      subject: body.subject ?? null,
      text: body.text,
      html: body.html ?? null,
      slack: null,
    };
  }
  if (body.text !== undefined || body.html !== undefined || body.subject !== undefined)
    throw badRequest(
      'subject, text and html come from the template: send either a body or a template',
    );
  const template = await findTemplate(db, appId, body.template);
  if (!template) throw notFound('Template', body.template);
  const { content } = template;
  let rendered;
  if (digestItems) {
    const data = { items: digestItems, count: digestItems.length };
    rendered = await engine.render(content, content.digest!.locales, data, body.locale);
  } else {
    const data = body.data ?? {};
    engine.validate(`${template.id}:${template.version}`, content.schema, data, template.name);
    rendered = await engine.render(content, content.locales, data, body.locale);
  }
  return { template, ...rendered };
}

/**
 * Works a send out: 400/404 for what is wrong with it (naming the field), else its channels in
 * order, each with its target and whether it is skipped (the recipient opted out of the category
 * there, or its address is suppressed), and the message rendered.
 */
export async function compose(
  deps: Deps,
  appId: string,
  body: SendInput,
  digestItems?: Array<Record<string, unknown>>,
): Promise<Composed> {
  const { db, config } = deps;
  const channels = await channelsOf(db, appId, body);
  const message = await contentOf(deps, appId, body, digestItems);
  const category = body.category ?? message.template?.category ?? null;
  const given = (body.recipient ?? body.to)?.trim();
  const steps: RouteStep[] = [];
  for (const { channel, registration } of channels) {
    const target = (
      channel.provider === 'inbox'
        ? (given ?? registration.target)
        : (body.to ?? registration.target)
    ).trim();
    if (channel.provider === 'smtp') {
      if (target === '')
        throw badRequest(
          `to is required: the registration of app ${appId} on channel ${channel.name} has no target`,
        );
      if (message.subject === null) throw badRequest('subject is required for an smtp channel');
    }
    if (channel.provider === 'inbox' && target === '')
      throw badRequest(`recipient is required for the inbox channel ${channel.name}`);
    checkTarget(channel.provider, target, body.to === undefined ? 'the registration target' : 'to');
    // Preferences, suppressions and the unsubscribe link are one person's: a message of a
    // category goes to one address (send once per person); a plain message may go to several.
    if (channel.provider === 'smtp' && category !== null && target.includes(','))
      throw badRequest(
        `${body.to === undefined ? 'the registration target' : 'to'} names several addresses, and a message of category ${category} goes to one person (their preferences and unsubscribe link): send it once per address`,
      );
    steps.push({
      channelId: channel.id,
      channel: channel.name,
      provider: channel.provider,
      target,
      skipped: null,
    });
  }
  const recipient = given || steps[0].target || null;
  for (const step of steps) {
    const required = category !== null && config.requiredCategories.includes(category);
    if (recipient && category && !required) {
      const off = await optedOut(db, recipient, category, {
        name: step.channel,
        provider: step.provider,
      });
      if (off) step.skipped = `${recipient} opted out of ${category} on ${step.channel}`;
    }
    if (!step.skipped && step.provider === 'smtp') {
      const addresses = step.target.split(',').map((a) => a.trim());
      const [suppressed] = await suppressedAmong(db, addresses);
      if (suppressed)
        step.skipped = `${suppressed.address} is suppressed (${suppressed.reason}): an admin may remove it (DELETE /suppressions/${suppressed.address})`;
    }
  }
  return {
    steps,
    subject: message.subject,
    text: message.text,
    html: message.html,
    slack: message.slack,
    recipient: recipient ? recipient.toLowerCase() : null,
    category,
    template: message.template,
    locale: message.locale,
  };
}
