import { describe, expect, it } from 'vitest';
import { roleDescriptions, roleLabels } from '../roles.ts';
import {
  auditAction,
  lateFeeKind,
  lateFeeRepeat,
  messageChannel,
  meterKind,
  readingFlag,
  reminderEvent,
} from '../enums.ts';
import { whatsappTemplateLabels } from '../whatsapp.ts';
import { providerCallbackLabels, providerCredentialFields } from '../payment-providers.ts';
import { auditLogTexts } from '../audit-log.ts';
import { catalogues } from './catalogues.ts';
import { LANGUAGES } from './languages.ts';

/** The staff pages' option labels from the domain, keyed by the options' own values (issue 30). */
describe('the administration pages’ derived texts', () => {
  it('name every role and describe every staff role, the English the domain’s', () => {
    for (const [name, label] of Object.entries(roleLabels)) {
      expect(catalogues.en[`users.role.${name}`]).toBe(label);
      for (const language of LANGUAGES) expect(catalogues[language][`users.role.${name}`]).toBeTruthy();
    }
    for (const [name, description] of Object.entries(roleDescriptions))
      expect(catalogues.en[`users.roleDescription.${name}`]).toBe(description);
  });

  it('name every audit action as its option does', () => {
    for (const action of auditAction.values)
      expect(catalogues.en[`audit.actionName.${action}`]).toBe(auditAction.labels[action]);
    expect(catalogues.en['audit.title']).toBe(auditLogTexts.title);
    expect(catalogues.en['audit.intro']).toBe(auditLogTexts.intro);
    expect(catalogues.en['audit.empty']).toBe(auditLogTexts.empty);
  });

  it('name the meters’ kinds and the readings’ flags as their options do', () => {
    for (const kind of meterKind.values)
      expect(catalogues.en[`utilities.meterKind.${kind}`]).toBe(meterKind.labels[kind]);
    for (const flag of readingFlag.values)
      expect(catalogues.en[`utilities.readingFlag.${flag}`]).toBe(readingFlag.labels[flag]);
  });

  it('name the company settings’ options, templates, credentials and callbacks as the domain does', () => {
    const lists = { lateFeeKind, lateFeeRepeat, reminderEvent, channel: messageChannel } as const;
    for (const [prefix, list] of Object.entries(lists))
      for (const value of list.values)
        expect(catalogues.en[`settings.${prefix}.${value}`]).toBe(
          (list.labels as Record<string, string>)[value],
        );
    for (const [kind, label] of Object.entries(whatsappTemplateLabels))
      expect(catalogues.en[`settings.whatsappTemplate.${kind}`]).toBe(label);
    for (const [provider, fields] of Object.entries(providerCredentialFields))
      for (const [name, label] of Object.entries(fields))
        expect(catalogues.en[`settings.credential.${provider}.${name}`]).toBe(label);
    for (const [provider, urls] of Object.entries(providerCallbackLabels))
      for (const [name, label] of Object.entries(urls))
        expect(catalogues.en[`settings.callback.${provider}.${name}`]).toBe(label);
  });
});
