import type { ErrorBody, SuspendedBody } from '@ruilplein/contracts';

/** An error whose message is meant for the member; anything else becomes a generic 500. */
export class HttpError extends Error {
  readonly status: number;
  readonly errors: ErrorBody['errors'];
  /** Fields of the answer beside the message (a suspension's reason and date). */
  readonly extra?: Omit<ErrorBody, 'message' | 'errors'>;
  constructor(status: number, message: string, errors?: ErrorBody['errors'], extra?: Omit<ErrorBody, 'message' | 'errors'>) {
    super(message);
    this.status = status;
    this.errors = errors;
    this.extra = extra;
  }
}

export const badRequest = (message: string, errors?: ErrorBody['errors']) => new HttpError(400, message, errors);
export const unauthorized = (message = 'Je bent niet ingelogd of je sessie is verlopen.') => new HttpError(401, message);
export const forbidden = (message = 'Je hebt geen toegang tot deze actie.') => new HttpError(403, message);
export const notFound = (message = 'Niet gevonden.') => new HttpError(404, message);
export const conflict = (message: string) => new HttpError(409, message);

/** A suspended member's 403 on a route they may not use now (contracts auth/suspensions.ts). */
export const suspendedError = ({ message, ...extra }: SuspendedBody) => new HttpError(403, message, undefined, extra);

export const MESSAGES = {
  invalidInput: 'De invoer is ongeldig.',
  invalidJson: 'De invoer is geen geldige JSON.',
  notAForm: 'De invoer is geen geldig formulier.',
  unexpectedFile: 'Dit veld verwacht geen bestand.',
  tooManyFiles: 'Er zijn te veel bestanden meegestuurd.',
  tooLarge: 'Het verzoek is te groot.',
  notFound: 'Deze pagina of bron bestaat niet.',
  internal: 'Er ging iets mis aan onze kant. Probeer het later opnieuw.',
  unavailable: 'De dienst is tijdelijk niet bereikbaar. Probeer het later opnieuw.',
  timeout: 'De dienst reageert niet op tijd. Probeer het later opnieuw.',
  tooManyRequests: 'Te veel verzoeken. Wacht even en probeer het opnieuw.',
  badEncoding: 'De invoer is niet leesbaar: de Content-Encoding klopt niet of wordt niet ondersteund.',
  notYourself: 'Je kunt dit alleen voor jezelf doen.',
} as const;
