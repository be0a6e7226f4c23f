import {
  IMPORT_EXPIRY_HOURS,
  MAX_IMPORT_ROWS,
  MAX_PORTAL_PHOTOS,
  MAX_REMINDERS,
  MAX_SEND_ATTEMPTS,
  MFA_CHALLENGE_MINUTES,
  PASSWORD_MIN_LENGTH,
  RECOVERY_CODE_COUNT,
  RESET_TOKEN_MINUTES,
  STALE_REMINDER_DAYS,
  SMS_PART_LENGTH,
  staffRoleNames,
  templateVariables,
  type StaffRoleName,
  type StatementSource,
} from '@kodi/domain';
import {
  DASHBOARD_REFRESH_MINUTES,
  IMPORT_MAX_MB,
  LOCK_AFTER_FAILURES,
  LOCK_MINUTES,
  PORTAL_CODE_MINUTES,
  PORTAL_INVITATION_DAYS,
  list,
  p,
  type HelpTopic,
} from './help-shared.ts';

/**
 * The Help Center in French (issue 30): help-topics.ts's topics, blocks and numbers, said in French
 * (the glossary's words: docs/glossary.md). Change it with the English.
 */

const roleLabels: Record<StaffRoleName, string> = {
  admin: 'Administrateur',
  company_admin: 'Administrateur de la société',
  editor: 'Éditeur',
  viewer: 'Lecteur',
};

const roleDescriptions: Record<StaffRoleName, string> = {
  admin:
    'Fait tout dans sa société, y compris supprimer des enregistrements, et gère les utilisateurs et les rôles de toute l’installation.',
  company_admin:
    'Dirige la société : ses paramètres et son traitement quotidien, les messages, le journal d’audit, la comptabilité (comptes, écritures, clôture d’une période), les remises, l’annulation des paiements et l’accès des locataires au portail. Consulte le reste sans ajouter ni modifier d’enregistrements.',
  editor:
    'Ajoute des enregistrements et modifie les logements, les locataires, les baux, les paiements et les demandes de maintenance, importe des fichiers et rapproche les relevés. Ne supprime rien ; n’annule qu’un paiement qu’il a enregistré le jour même.',
  viewer: 'Consulte les données de la société sans les modifier.',
};

const statementSourceLabels: Record<StatementSource, string> = {
  mtn_momo: 'MTN Mobile Money',
  airtel_money: 'Airtel Money',
  bank: 'Relevé bancaire',
  custom: 'Autre (associer les colonnes)',
};

export const helpTopics: HelpTopic[] = [
  {
    id: 'getting-started',
    title: 'Premiers pas',
    blocks: [
      p(
        'Kodi réunit en un seul endroit l’activité locative d’une société : logements, locataires, baux (dossiers d’occupation), paiements avec leurs reçus, demandes de maintenance, dépenses, fournisseurs, employés et leur paie. Tout ce que vous voyez appartient à votre propre société.',
      ),
      list(
        'Connectez-vous avec votre adresse e-mail, votre mot de passe et les caractères de l’image CAPTCHA. Nouveau ? Choisissez S’inscrire sur la page de connexion pour créer un compte.',
        'Un nouveau compte peut se connecter tout de suite, mais un avis indique qu’il attend son accès jusqu’à ce qu’un administrateur lui attribue un rôle.',
        'Le menu de gauche (le bouton de menu de la barre du haut, sur un téléphone) mène aux pages que votre rôle autorise. Chacune de ses sections peut être repliée.',
        'Les listes ont un champ de recherche au-dessus d’elles ; beaucoup de colonnes se trient d’un clic sur leur en-tête, et les longues listes sont découpées en pages.',
        'Le bouton Exporter d’une liste enregistre les lignes qui correspondent à votre recherche dans un fichier Excel (xlsx) ou PDF.',
        'Les messages sur ce que vous venez de faire s’affichent en bas de l’écran ; Fermer les fait disparaître.',
      ),
    ],
  },
  {
    id: 'dashboard',
    title: 'Tableau de bord',
    blocks: [
      p('L’accueil est le tableau de bord de votre société. Quatre cartes comptent :'),
      list(
        'Logements disponibles : les logements dont le statut est Disponible.',
        'Réparations en attente : les demandes de maintenance dont le statut est Ouverte.',
        'Paiements du mois : les paiements datés du mois civil en cours qui ne sont pas en attente.',
        'Paiements incomplets : les paiements dont le statut est En attente.',
      ),
      p(
        'Chaque carte a un lien Tout voir vers sa liste. En dessous se trouvent de courtes listes (5 lignes au plus chacune) des logements disponibles, des réparations en attente, des derniers paiements effectués et des dernières dépenses, ainsi qu’un tableau des paiements incomplets (en attente).',
      ),
      p(
        `Le tableau de bord se rafraîchit de lui-même toutes les ${DASHBOARD_REFRESH_MINUTES} minutes tant qu’il est ouvert\u202f; rechargez la page pour voir un changement tout de suite.`,
      ),
    ],
  },
  {
    id: 'properties',
    title: 'Biens',
    blocks: [
      p(
        'Un bien est un immeuble ou une résidence qui contient des logements : son nom, son adresse et son type (Résidentiel, Commercial ou Mixte) et, si vous le souhaitez, son gérant, le téléphone de celui-ci et une description. Le bien d’un logement se choisit dans le formulaire du logement.',
      ),
      list(
        'La liste des biens montre combien de logements compte chaque bien, combien sont occupés (d’après leur statut) et la part occupée (Occupation %) ; vous pouvez trier sur chacune de ces colonnes.',
        'Le détail d’un bien liste ses logements avec leur statut et leur locataire actuel, avec des liens vers ses logements, ses paiements et ses arriérés.',
        'Logements, Baux, Paiements, Dépenses, Demandes de maintenance, Arriérés, Rapports financiers et l’Accueil ont un sélecteur de bien : choisissez un bien pour ne voir que ses enregistrements (et n’exporter que ceux-là). Kodi retient votre choix quand vous passez d’une de ces pages à l’autre ; videz le sélecteur pour revoir tous les biens.',
        'Les rapports financiers d’un bien comptent les paiements et les dépenses de ses logements ; les salaires et les commissions appartiennent à la société, pas à un bien.',
        'Les administrateurs et les éditeurs ajoutent et modifient les biens ; seuls les administrateurs les suppriment. Un bien qui a encore des logements ne peut pas être supprimé.',
      ),
    ],
  },
  {
    id: 'units',
    title: 'Logements',
    blocks: [
      p(
        'Un logement est un bien que vous louez : son nom, son adresse, son type (Appartement, Maison, Studio ou Commercial) et ses loyers mensuel, hebdomadaire et journalier (chacun supérieur à 0) et, si vous le souhaitez, le nombre de chambres et de salles de bain, la surface, les numéros de compteur, les équipements et une description.',
      ),
      list(
        'Le statut est Disponible, Occupé ou Maintenance. Un nouveau logement commence Disponible. Les baux le tiennent à jour : un logement Disponible devient Occupé quand un bail le loue (à la date de début du bail), et redevient Disponible quand plus aucun bail ne le loue (le bail a pris fin, a été résilié ou supprimé). Un logement en Maintenance ne change jamais de lui-même, et vous pouvez choisir n’importe quel statut à la main.',
        'Chaque logement peut avoir deux images (PNG, JPEG ou WebP, 2 Mo au plus chacune), affichées dans son détail.',
        'La flèche au début d’une ligne affiche la description.',
        'Les administrateurs et les éditeurs ajoutent et modifient les logements ; seuls les administrateurs les suppriment. Un logement auquel des baux, des paiements ou d’autres enregistrements font encore référence ne peut être supprimé qu’une fois ceux-ci retirés.',
      ),
    ],
  },
  {
    id: 'tenants',
    title: 'Locataires',
    blocks: [
      p(
        'Un locataire a un prénom et un nom, un sexe, un numéro de téléphone et une date de naissance (une date passée) et, si vous le souhaitez, un indicatif de pays comme +256, une adresse e-mail, un numéro de pièce d’identité ou de passeport et un contact d’urgence. Le statut est Actif ou Inactif.',
      ),
      p(
        'Les administrateurs et les éditeurs ajoutent et modifient les locataires ; seuls les administrateurs les suppriment.',
      ),
    ],
  },
  {
    id: 'payments',
    title: 'Paiements',
    blocks: [
      p(
        'Un paiement enregistre l’argent reçu d’un locataire pour un logement : la date, le montant, le moyen (Espèces, Chèque, Virement bancaire, Carte bancaire ou Mobile money), la période qu’il paie, une référence et des détails.',
      ),
      list(
        'Le locataire doit avoir un bail pour ce logement, sinon Kodi répond « Aucun bail ne correspond à ce locataire et à ce logement. » Chaque locataire est proposé avec le logement qu’il loue. Choisir un locataire remplit le logement du bail auquel va le paiement, le montant dû aujourd’hui (ou le prochain loyer quand rien n’est dû) et la période couverte ; ce que vous saisissez vous-même n’est jamais remplacé.',
        'Le statut est En attente, Effectué ou Échoué ; un nouveau paiement commence Effectué.',
        'Chaque paiement reçoit un numéro de série à son enregistrement (PAY-000001, PAY-000002, ...). Quand un paiement devient Effectué pour la première fois, il reçoit aussi un numéro de reçu (RCT-000001, RCT-000002, ...). Les deux sont comptés par société, sans trou, et ne sont jamais réutilisés ; un numéro de reçu ne change plus une fois donné.',
        'Imprimer le reçu, sur la ligne d’un paiement, ouvre le reçu (numéro de reçu, date, locataire, logement, moyen, statut et montant) avec Télécharger le PDF pour un exemplaire A4. Son code QR permet à chacun de vérifier le reçu en ligne.',
        'Un reçu ne change jamais : une fois un paiement Effectué, son montant, sa date, son locataire, son logement, son moyen et son statut sont verrouillés. En cas d’erreur, annulez le paiement (Annuler le paiement dans son détail, avec un motif) et enregistrez-en un nouveau. Un paiement annulé garde ses numéros, son reçu porte la mention ANNULÉ, et il ne compte plus dans les soldes, les arriérés ni les rapports.',
        'Les administrateurs et les administrateurs de la société annulent n’importe quel paiement ; un éditeur n’annule qu’un paiement qu’il a enregistré le jour même. Les paiements annulés sont masqués de la liste, sauf si vous choisissez Annulé dans son filtre de statut.',
        'Les administrateurs et les éditeurs ajoutent et modifient les paiements. Supprimer un paiement effectué l’annule au lieu de le supprimer ; les paiements en attente ou échoués peuvent être supprimés par les administrateurs.',
      ),
    ],
  },
  {
    id: 'expenses',
    title: 'Dépenses',
    blocks: [
      p(
        'Une dépense a une date, un montant et une catégorie : Plomberie, Réparations courantes, Équipements, Électricité, Nettoyage, Réparations, Charges de copropriété ou Autre. Le logement, une description et le fournisseur sont facultatifs.',
      ),
      p(
        'Les administrateurs et les éditeurs ajoutent les dépenses ; seuls les administrateurs les modifient ou les suppriment. Les plus récentes s’affichent sur le tableau de bord.',
      ),
    ],
  },
  {
    id: 'owners',
    title: 'Propriétaires',
    blocks: [
      p(
        'Les propriétaires sont les personnes et les sociétés dont vous gérez les biens : un prénom et un nom ou une raison sociale, un téléphone, un e-mail, un numéro fiscal et la façon dont leurs versements leur sont faits (virement bancaire, mobile money, espèces ou chèque).',
      ),
      p(
        'Le détail d’un bien montre ses propriétaires avec leurs parts et son mandat de gestion (les honoraires, des honoraires minimums, la réserve retenue et l’impôt sur les loyers retenu à la source). Les parts font 100 % au total et comptent à partir du jour où elles sont fixées ; un bien sans propriétaire appartient à la société elle-même. Rien n’est encore passé en comptabilité pour les propriétaires.',
      ),
      p(
        'Tous les rôles consultent les propriétaires ; les administrateurs et les administrateurs de la société les ajoutent et modifient leurs parts ; seuls les administrateurs les suppriment.',
      ),
    ],
  },
  {
    id: 'vendors',
    title: 'Fournisseurs',
    blocks: [
      p(
        'Les fournisseurs sont les personnes et les entreprises qui travaillent pour vous : un nom, le service qu’ils offrent et un numéro de téléphone. Un fournisseur peut être choisi sur les demandes de maintenance et les dépenses.',
      ),
      p(
        'Les administrateurs et les éditeurs ajoutent les fournisseurs ; seuls les administrateurs les modifient ou les suppriment.',
      ),
    ],
  },
  {
    id: 'maintenance-requests',
    title: 'Demandes de maintenance',
    blocks: [
      p(
        'Une demande de maintenance enregistre des travaux sur un logement : le logement, le locataire, la date, une description, la priorité (Basse, Moyenne ou Haute), le statut, le fournisseur et le coût estimé.',
      ),
      list(
        'Le statut est Ouverte, En cours ou Clôturée, et chacun peut être choisi à tout moment. Une nouvelle demande commence Ouverte, avec une priorité Basse.',
        'Les demandes ouvertes comptent comme Réparations en attente sur le tableau de bord.',
        'Les administrateurs et les éditeurs ajoutent et modifient les demandes ; seuls les administrateurs les suppriment.',
      ),
    ],
  },
  {
    id: 'occupancy',
    title: 'Baux',
    blocks: [
      p(
        'Un dossier d’occupation est un bail : quel locataire occupe quel logement, d’une date de début à une date de fin facultative (pas avant le début), à quel loyer et selon quel cycle de loyer (Mensuel, Hebdomadaire ou Journalier).',
      ),
      list(
        'Il garde aussi le dépôt de garantie et son statut (Détenu, Restitué ou Retenu), le préavis en jours, si les charges (eau, électricité) sont comprises, et le statut du bail : Actif, Résilié ou Renouvelé.',
        'Un document de bail (PDF, PNG ou JPEG, 5 Mo au plus) peut être joint et téléchargé depuis le détail du bail.',
        'Les administrateurs et les éditeurs ajoutent et modifient les baux ; seuls les administrateurs les suppriment.',
      ),
    ],
  },
  {
    id: 'imports',
    title: 'Importations',
    blocks: [
      p(
        `La page Importer (Administration\u202f; administrateurs et éditeurs) fait entrer des enregistrements depuis un fichier CSV ou Excel (xlsx)\u00a0: biens, logements, locataires, baux (avec leurs soldes d’ouverture), paiements et dépenses. Un fichier contient un seul type d’enregistrement, ${MAX_IMPORT_ROWS.toLocaleString('fr-FR')} lignes et ${IMPORT_MAX_MB} Mo au plus.`,
      ),
      list(
        'Téléchargez le modèle du type que vous importez pour ses colonnes et une ligne d’exemple. Kodi lit aussi vos propres en-têtes : les libellés des champs et les noms usuels comme Phone number, Mobile, Rent, DOB ou Gender.',
        'Envoyez le fichier et Kodi montre un aperçu avant que rien ne soit enregistré : combien de lignes il va créer, mettre à jour ou laisser inchangées, et chaque problème par numéro de ligne et par champ. Changez l’association d’une colonne et l’aperçu est refait. Téléchargez le fichier des erreurs, corrigez les lignes et importez-le de nouveau.',
        `L’importation enregistre toutes les lignes valides d’un coup, ou rien si l’une d’elles échoue. Un aperçu non importé dans les ${IMPORT_EXPIRY_HOURS} heures expire\u00a0: envoyez de nouveau le fichier.`,
        'Les enregistrements liés sont nommés, jamais numérotés : un logement par son nom, un locataire par son nom complet ou son téléphone, ou par une référence externe (colonne External ref). Une ligne dont la référence externe existe déjà met à jour cet enregistrement, en ne changeant que les colonnes présentes dans le fichier.',
        'Les dates peuvent s’écrire 2026-03-05, 5 Mar 2026 ou, dans le format que vous choisissez, 05/03/2026. Les montants peuvent porter la devise de la société (UGX 1,200,000) ; une autre devise est refusée. Les téléphones sont lus comme des numéros du pays de la société : 0772 123456 devient +256772123456.',
        'Un bail qui a commencé dans le passé facture le loyer de chaque période depuis son début : l’aperçu fait le total de ces loyers passés. Donnez au bail un solde d’ouverture (ce que le locataire devait à une date) pour que seul le loyer après cette date soit facturé.',
      ),
    ],
  },
  {
    id: 'combined-sheet',
    title: 'Le fichier combiné : locataires, baux et soldes en un seul fichier',
    blocks: [
      p(
        'Le tableau du bailleur suffit pour commencer : une ligne par logement loué, avec le locataire, son téléphone, le logement, le loyer, la date de début et ce que le locataire doit aujourd’hui. Importez-le comme Baux (Administration, Importer) : Kodi crée d’un seul coup les locataires qu’il n’a pas, leurs baux et les soldes d’ouverture.',
      ),
      list(
        'Colonnes que Kodi lit sous leurs noms usuels : Tenant name (ou Full name, Name), Phone (ou Mobile, Tel), Unit, Rent, Start date (ou Move in) et Opening balance (ou Balance, Arrears, Amount owed) ; Sex, Date of birth et E-mail quand le tableau les a. Changez l’association d’une colonne dans l’aperçu si Kodi l’a lue autrement.',
        'Les logements doivent d’abord être dans Kodi (ajoutez-les, ou importez un fichier de logements) : la colonne Unit les nomme. Une ligne de logement qui n’a que son loyer mensuel en tire ses loyers hebdomadaire et journalier (× 12 / 52 et × 12 / 365).',
        'Un locataire est retrouvé par son nom (ou son téléphone, ou sa référence externe). Un locataire que Kodi n’a pas est ajouté à partir de la ligne : un nom entier est découpé, son dernier mot devient le nom de famille (« Brian Bbosa Okello » devient Brian Bbosa / Okello) ; un seul mot est refusé, donnez un prénom et un nom. Un locataire de deux logements est ajouté une fois, avec deux baux.',
        'Les téléphones sont lus comme des numéros du pays de votre société, quelle que soit leur écriture (0772 123456, +256 772-123-456, 256772123456). Un numéro qui ne peut pas être de ce pays rend la ligne rejetée. Deux locataires avec le même téléphone sont un avertissement, pas une erreur : un paiement mobile money venu de ce téléphone ne peut pas dire à qui il appartient.',
        'Ce qui manque au fichier et que les enregistrements exigent (le sexe et la date de naissance d’un nouveau locataire, la date d’un solde d’ouverture) est demandé une seule fois sous « Valeurs absentes du fichier » : la valeur va à chaque ligne qui n’en a pas, et l’aperçu l’affiche « (donnée pour chaque ligne) ». Choisissez Refaire l’aperçu pour voir les lignes avec elle.',
        'Solde d’ouverture : ce que le locataire devait à la date du solde d’ouverture (un montant négatif pour un loyer payé d’avance). Aucun loyer n’est facturé pour les périodes échues à cette date ou avant. Un bail commencé dans le passé sans solde se voit facturer le loyer de chaque période depuis son début ; l’aperçu fait le total de ces loyers passés avant l’importation.',
        'L’importation enregistre toutes les lignes valides ou rien, et dit combien de locataires elle a ajoutés. Téléchargez les lignes rejetées, corrigez-les et importez ce fichier de nouveau.',
      ),
    ],
  },
  {
    id: 'books',
    title: 'La comptabilité',
    blocks: [
      p(
        'Kodi tient une comptabilité en partie double pour votre société. Chaque mouvement d’argent passe de lui-même une écriture équilibrée au journal : les loyers à leur échéance, les pénalités de retard, les frais, les remises, les paiements et leurs annulations, les dépôts de garantie, les dépenses, les salaires et les soldes d’ouverture. Une écriture passée ne change jamais ; une correction est une écriture à part entière.',
      ),
      list(
        'Le plan comptable (Finances) liste les comptes de la société avec leurs soldes : caisse, mobile money, banque, créances clients (ce que doivent les locataires), avoirs des locataires, dépôts de garantie détenus, revenus locatifs et de pénalités, un compte de charges par catégorie, salaires et plus encore. Les administrateurs et les administrateurs de la société ajoutent, renomment et désactivent des comptes ; un compte qui a des écritures n’est jamais supprimé, seulement désactivé, et Kodi continue de passer ses écritures sur ses comptes par défaut même désactivés.',
        'Le compte d’un paiement suit son moyen : les espèces en Caisse, le mobile money en Mobile money, les virements et les chèques en Banque. Une dépense est payée depuis le compte choisi dans son formulaire (Caisse par défaut).',
        'Le journal (Finances) liste les écritures, les plus récentes d’abord, avec une recherche sur le libellé et des filtres par date, compte et origine (Loyer échu, Paiement annulé, Écriture manuelle…). Ouvrez une écriture pour voir ses lignes. Les administrateurs et les administrateurs de la société passent une écriture manuelle : deux lignes ou plus dont les débits égalent les crédits.',
        'Clôturer la comptabilité (Journal, Clôturer la comptabilité ; administrateurs et administrateurs de la société) fige chaque jour jusqu’à la date choisie : rien ne peut être passé, annulé ou ajusté à cette date ou avant, et une clôture est irréversible. Le loyer encore dû pour ces jours est passé au premier jour ouvert.',
        'Soldes d’ouverture : un bail peut porter ce que le locataire devait (ou avait payé d’avance, en montant négatif) à une date, sa date de solde d’ouverture. Aucun loyer n’est facturé pour les périodes échues à cette date ou avant : vous pouvez commencer dans Kodi sans saisir le passé.',
        'Annuler un paiement : un reçu ne change jamais. Annulez le paiement (avec un motif) et enregistrez-en un nouveau ; l’annulation passe sa propre écriture de contrepassation le jour où elle est faite.',
      ),
      p(
        'La page Rapports financiers (Finances, tous les rôles du personnel) montre le compte de résultat et les flux de trésorerie par mois avec un total pour la période, la balance, le grand livre d’un compte et le bilan, pour la société ou un bien, chacun exportable en Excel ou en PDF. Le compte de résultat est en comptabilité de caisse (paiements reçus, répartis entre loyers, pénalités de retard et autres frais) ou d’engagement (loyers et frais à leur échéance).',
      ),
    ],
  },
  {
    id: 'collections',
    title: 'Recouvrement : relevés et rapprochement',
    blocks: [
      p(
        `La page Recouvrement (Finances\u202f; administrateurs et éditeurs) transforme l’argent reçu en paiements. Envoyez un relevé tel qu’il vient de l’opérateur (${Object.values(statementSourceLabels).join(', ')}, en choisissant sa source) en CSV ou en Excel\u00a0: Kodi lit chaque transaction entrante et cherche le bail qu’elle paie.`,
      ),
      list(
        'Le rapprochement compare le téléphone du payeur (quelle que soit son écriture : 0772…, 256772…, +256772…) aux téléphones des locataires, et la référence aux noms des logements et des locataires et aux références externes. Un téléphone et une référence qui désignent le même bail, ou un téléphone et exactement le loyer dû, c’est certain ; un téléphone seul avec un autre montant, ou une référence seule, c’est une suggestion.',
        'Chaque ligne est Non rapprochée, Suggérée, Rapprochée ou Ignorée. Acceptez une suggestion, ou rapprochez à la main (en répartissant le montant entre plusieurs baux s’il en paie plusieurs) ; chacune devient un paiement effectué avec son reçu, daté du jour de la transaction, avec pour référence l’identifiant de la transaction.',
        'Paramètres de la société, Recouvrement : activez la comptabilisation immédiate des rapprochements certains pour que leurs paiements soient faits sans vous attendre.',
        'Ignorez une ligne qui n’est pas un loyer (avec un motif). L’argent sortant (retraits, frais) est ignoré de lui-même. La même transaction dans un second relevé est reconnue et n’est jamais comptée deux fois.',
        'Un administrateur peut défaire le rapprochement d’une ligne : ses paiements sont annulés (leurs reçus restent, marqués annulés) et la ligne peut être rapprochée de nouveau. Supprimer un relevé (administrateurs et administrateurs de la société) annule chaque paiement créé par ses lignes.',
        'Un opérateur de paiement ou un agrégateur peut aussi envoyer chaque transaction à Kodi au moment où elle a lieu (Paramètres de la société, webhook de paiement) ; ces lignes sont rapprochées de la même façon.',
      ),
    ],
  },
  {
    id: 'matching-memory',
    title: 'La mémoire du rapprochement : comment le recouvrement apprend',
    blocks: [
      p(
        'Souvent, le loyer arrive d’un téléphone qu’aucun locataire n’a : celui d’un parent, d’un employeur, une deuxième carte SIM. La première fois, le recouvrement ne peut pas dire à qui il appartient et la ligne l’indique (« Aucun locataire n’a ce téléphone »). Rapprochez-la une fois à la main du bail, et Kodi s’en souvient.',
      ),
      list(
        'Rapprocher une ligne d’un seul bail (à la main, ou en acceptant une suggestion) apprend à Kodi que le téléphone de ce payeur paie ce bail. Une ligne sans téléphone (un virement bancaire) est retenue par sa référence. Une ligne répartie entre plusieurs baux n’apprend rien.',
        'Les lignes ouvertes de ce téléphone déjà envoyées suivent aussitôt, et chaque ligne ultérieure de ce téléphone arrive de la même façon : suggérée pour ce bail, avec le motif « Déjà rapprochée à la main : une ligne de ce téléphone est allée à ce bail ». Ce qui a été rapproché à la main passe avant ce que diraient le téléphone ou la référence.',
        'Quand les Paramètres de la société, Recouvrement comptabilisent aussitôt les rapprochements certains, ces lignes sont rapprochées et leurs paiements faits sans vous attendre.',
        'Rapprocher à la main une ligne du même téléphone d’un autre bail remplace ce qui avait été appris : le dernier rapprochement à la main l’emporte.',
        'Chaque ligne ouverte dit pourquoi elle est ouverte : « Aucun locataire n’a ce téléphone », « Deux locataires partagent ce téléphone », « Le montant diffère du loyer dû (800 000 UGX) », « Le locataire a plusieurs baux : répartissez le montant entre eux », etc. Lisez-le avant d’accepter.',
      ),
    ],
  },
  {
    id: 'late-fees-reminders',
    title: 'Pénalités de retard, rappels et messages',
    blocks: [
      p(
        'Chaque jour, à l’heure du traitement quotidien de la société et dans son fuseau horaire (Paramètres de la société, Traitement quotidien), Kodi applique les hausses de loyer arrivées à échéance, passe les pénalités de retard et met en file les rappels de loyer. « Lancer le traitement quotidien maintenant » le lance aussitôt et liste pour qui chaque pénalité de retard, hausse de loyer et rappel a été fait ; un jour n’est jamais traité deux fois, et les jours manqués pendant que le serveur était arrêté sont rattrapés à leur propre date.',
      ),
      list(
        'Pénalités de retard (Paramètres de la société, Pénalités de retard) : après les jours de grâce, un loyer encore impayé reçoit une pénalité le lendemain, forfaitaire ou en pourcentage de l’impayé, une seule fois ou de nouveau chaque semaine ou chaque mois tant qu’il reste impayé, jusqu’à un plafond facultatif par loyer. Un bail peut avoir sa propre règle ou en être exempté. Seul le loyer entraîne des pénalités.',
        'Une pénalité ou des frais ne sont jamais modifiés ni supprimés : les administrateurs et les administrateurs de la société y renoncent (Remettre, avec un motif, dans Frais et pénalités du bail), ce qui retire leur montant de ce que doit le locataire.',
        `Rappels (Paramètres de la société, Rappels\u202f; jusqu’à ${MAX_REMINDERS})\u00a0: avant l’échéance, le jour même ou après, par e-mail et par SMS, chacun avec son modèle. Un rappel ne part que si une partie de ce loyer reste impayée à la fin de la veille, et jamais plus de ${STALE_REMINDER_DAYS} jours en retard.`,
        'Les reçus peuvent être envoyés d’eux-mêmes, par e-mail (avec le PDF) et par SMS, quand un paiement est effectué (Paramètres de la société, Reçus et messages ; un locataire peut en être exclu par ses propres choix e-mail et SMS).',
        `Les modèles (Messages, Modèles) contiennent les mots de chaque rappel et de chaque reçu, avec des variables comme ${templateVariables
          .slice(0, 3)
          .map((v) => `{{${v}}}`)
          .join(', ')}. Un SMS de plus de ${SMS_PART_LENGTH} caractères part en plusieurs parties.`,
        `Le journal des messages (Messages) montre chaque message avec son adresse, son statut et, pour un message ignoré ou échoué, la raison\u00a0: pas d’adresse e-mail ni de téléphone pour le locataire, aucun fournisseur d’e-mail ou de SMS configuré sur le serveur, ou le refus du fournisseur. Un envoi échoué est retenté jusqu’à ${MAX_SEND_ATTEMPTS} fois\u202f; Renvoyer remet en file un message échoué ou ignoré.`,
      ),
    ],
  },
  {
    id: 'tenant-portal',
    title: 'Portail locataire',
    blocks: [
      p(
        'Les locataires ont leur propre portail, conçu pour le téléphone : ce qu’ils doivent et la date du prochain loyer, leur grand livre et leur relevé, leurs paiements avec leurs reçus, et leurs demandes de réparation.',
      ),
      list(
        `Invitez un locataire depuis son détail (Portail locataire\u00a0: Inviter par e-mail ou Inviter par SMS\u202f; administrateurs et éditeurs). Le lien fonctionne une seule fois, pendant ${PORTAL_INVITATION_DAYS} jours, et permet au locataire de choisir un mot de passe\u202f; une nouvelle invitation remplace la précédente.`,
        `Les locataires se connectent sur /portal avec leur adresse e-mail ou leur numéro de téléphone et leur mot de passe, ou avec un code de ${PORTAL_CODE_MINUTES} minutes qui leur est envoyé. La page de connexion du personnel ne laisse pas entrer les locataires.`,
        `Un locataire peut signaler une réparation avec jusqu’à ${MAX_PORTAL_PHOTOS} photos\u202f; elle apparaît parmi les demandes de maintenance, marquée comme envoyée par le locataire.`,
        'Le portail garde ce qu’il a chargé en dernier : un locataire peut encore le lire hors ligne.',
        'Les administrateurs et les administrateurs de la société coupent (et rétablissent) l’accès d’un locataire au portail : le couper déconnecte aussitôt le locataire.',
      ),
    ],
  },
  {
    id: 'two-factor',
    title: 'Connexion à deux facteurs',
    blocks: [
      p(
        'La connexion à deux facteurs demande, après votre mot de passe, un code d’une application d’authentification sur votre téléphone : un mot de passe volé ne suffit pas à ouvrir votre compte.',
      ),
      list(
        'Activez-la dans Sécurité du compte (Profil dans le menu) : scannez le code QR avec une application d’authentification (Google Authenticator, Microsoft Authenticator, 1Password…) ou saisissez sa clé, puis entrez le code affiché par l’application et votre mot de passe.',
        `Vous recevez alors ${RECOVERY_CODE_COUNT} codes de secours, affichés une seule fois\u00a0: gardez-les en lieu sûr. Chacun vous connecte une fois si vous perdez votre téléphone.`,
        `À la connexion, après votre mot de passe, entrez le code actuel de l’application (ou un code de secours) dans les ${MFA_CHALLENGE_MINUTES} minutes. Un code ne sert qu’une fois. Les mauvais codes comptent comme des connexions échouées, comme les mauvais mots de passe.`,
        'L’activer vous déconnecte partout ailleurs. Pour la désactiver, entrez un code actuel et votre mot de passe.',
        'Sécurité du compte liste aussi les appareils où vous êtes connecté ; fermez une session que vous ne reconnaissez pas, ou toutes les autres d’un coup.',
        'Vous avez perdu votre téléphone et vos codes de secours ? Un administrateur réinitialise votre connexion à deux facteurs (Rôles des utilisateurs, Sécurité de connexion), puis vous la configurez de nouveau.',
        'Paramètres de la société, Connexion peut exiger la connexion à deux facteurs pour chaque membre du personnel de la société : un utilisateur qui ne l’a pas est conduit à Sécurité du compte jusqu’à ce qu’elle soit active.',
      ),
    ],
  },
  {
    id: 'user-roles',
    title: 'Rôles des utilisateurs',
    blocks: [
      p('Chaque membre du personnel a un ou plusieurs rôles :'),
      list(...staffRoleNames.map((r) => `${roleLabels[r]}\u00a0: ${roleDescriptions[r]}`)),
      p(
        'Les comptes du portail des locataires ne sont pas des utilisateurs du personnel : ils n’apparaissent pas dans Rôles des utilisateurs et se gèrent dans la section Portail locataire du détail d’un locataire.',
      ),
      p(
        'Un utilisateur sans rôle peut se connecter mais ne voit aucune donnée tant qu’un administrateur ne lui en a pas attribué un. Toute personne connectée peut changer son propre mot de passe (Profil, Changer le mot de passe).',
      ),
      p(
        'Dans Rôles des utilisateurs (administrateurs seulement), vous cherchez des utilisateurs par e-mail, ajoutez un utilisateur, modifiez ses rôles (un au moins), lui donnez un nouveau mot de passe, modifiez son profil, et désactivez ou réactivez son compte. Désactiver déconnecte aussitôt l’utilisateur ; un nouveau mot de passe ferme ses autres sessions et lève un verrouillage de connexion. Vous ne pouvez ni retirer votre propre rôle d’administrateur ni désactiver votre propre compte.',
      ),
      p(
        'Les données de l’activité appartiennent toujours à la société de l’utilisateur connecté, administrateurs compris : un administrateur travaille dans une autre société en changeant la société dans son propre profil.',
      ),
    ],
  },
  {
    id: 'account',
    title: 'Compte',
    blocks: [
      list(
        `S’inscrire demande votre adresse e-mail, votre prénom et votre nom, votre société, un mot de passe d’au moins ${PASSWORD_MIN_LENGTH} caractères (saisi deux fois) et le CAPTCHA. Vous êtes connecté tout de suite et attendez un rôle.`,
        `Les mots de passe ont au moins ${PASSWORD_MIN_LENGTH} caractères.`,
        `Après ${LOCK_AFTER_FAILURES} connexions échouées de suite pour une adresse e-mail, cette adresse est verrouillée pendant ${LOCK_MINUTES} minutes, même avec le bon mot de passe. Une connexion réussie remet le compte à zéro\u202f; un mauvais CAPTCHA ne compte pas.`,
        `Mot de passe oublié\u202f? Choisissez «\u00a0Mot de passe oublié\u202f?\u00a0» sur la page de connexion et entrez votre adresse e-mail. Si elle est enregistrée, vous recevez un e-mail avec un lien qui fonctionne une seule fois, dans les ${RESET_TOKEN_MINUTES} minutes. Définir le nouveau mot de passe ferme toutes vos sessions.`,
        'Changer le mot de passe (Profil dans le menu) demande votre mot de passe actuel et deux fois le nouveau. Ensuite toutes vos sessions se ferment, celle-ci aussi, et vous vous reconnectez.',
        'Se connecter avec Google fonctionne quand l’administrateur l’a configuré, pour un compte Kodi actif ayant la même adresse e-mail vérifiée que votre compte Google. Cela ne crée jamais de compte.',
        'Déconnexion se trouve dans le menu du compte, en haut à droite. Un compte désactivé ne peut pas se connecter.',
      ),
    ],
  },
  {
    id: 'faq',
    title: 'FAQ',
    blocks: [
      {
        kind: 'qa',
        items: [
          {
            q: 'Je me suis inscrit mais je ne vois aucune donnée.',
            a: 'Votre compte n’a pas encore de rôle. Demandez à un administrateur de vous en attribuer un dans Rôles des utilisateurs, puis rechargez la page ou reconnectez-vous.',
          },
          {
            q: 'Je n’arrive pas à lire le CAPTCHA.',
            a: 'Cliquez sur l’image, ou sur le bouton d’actualisation à côté, pour en avoir une nouvelle. Chaque tentative consomme l’image : une nouvelle apparaît après chaque essai.',
          },
          {
            q: 'Ma connexion est refusée même avec le bon mot de passe.',
            a: `Après ${LOCK_AFTER_FAILURES} tentatives échouées, l’adresse est verrouillée pendant ${LOCK_MINUTES} minutes\u00a0: patientez, ou demandez à un administrateur de définir un nouveau mot de passe, ce qui lève le verrouillage. Un compte désactivé ne peut pas se connecter du tout.`,
          },
          {
            q: 'Le lien de réinitialisation ne fonctionne pas.',
            a: `Un lien de réinitialisation fonctionne une seule fois, pendant ${RESET_TOKEN_MINUTES} minutes. Demandez-en un nouveau sur la page Mot de passe oublié.`,
          },
          {
            q: 'Pourquoi « Se connecter avec Google » est-il grisé ?',
            a: 'La connexion Google n’a pas été configurée sur cette installation.',
          },
          {
            q: 'Pourquoi ne puis-je pas supprimer un enregistrement ?',
            a: 'Seuls les administrateurs suppriment, et un enregistrement auquel d’autres font encore référence ne peut pas être supprimé : Kodi nomme ce qui l’utilise encore. Retirez d’abord ces éléments.',
          },
          {
            q: 'Kodi dit que l’enregistrement a été modifié par quelqu’un d’autre.',
            a: 'Quelqu’un l’a enregistré après que vous l’avez ouvert. Rechargez pour voir la dernière version, puis refaites votre modification.',
          },
          {
            q: 'Dans quelle devise les montants sont-ils affichés ?',
            a: 'Dans la devise de votre société (UGX quand la société n’en a pas).',
          },
          {
            q: 'Où trouver un reçu ?',
            a: 'Dans Paiements, choisissez Imprimer le reçu sur la ligne du paiement. Un paiement a un numéro de reçu dès qu’il est Effectué.',
          },
        ],
      },
    ],
  },
  {
    id: 'glossary',
    title: 'Glossaire',
    blocks: [
      {
        kind: 'terms',
        items: [
          {
            term: 'Logement',
            text: 'Un bien que vous louez : un appartement, une maison, un studio ou un local commercial.',
          },
          { term: 'Locataire', text: 'Une personne qui loue un logement.' },
          {
            term: 'Dossier d’occupation (bail)',
            text: 'Quel locataire occupe quel logement, depuis quand, à quel loyer.',
          },
          {
            term: 'Cycle de loyer',
            text: 'La fréquence à laquelle le loyer est dû : mensuelle, hebdomadaire ou journalière.',
          },
          { term: 'Dépôt de garantie', text: 'L’argent détenu pour un bail : détenu, restitué ou retenu.' },
          {
            term: 'Numéro de série du paiement',
            text: 'Le numéro que reçoit chaque paiement à son enregistrement, comme PAY-000001.',
          },
          {
            term: 'Numéro de reçu',
            text: 'Le numéro que reçoit un paiement la première fois qu’il est effectué, comme RCT-000001.',
          },
          { term: 'Réparation en attente', text: 'Une demande de maintenance dont le statut est Ouverte.' },
          { term: 'Paiement incomplet', text: 'Un paiement dont le statut est En attente.' },
          {
            term: 'Fournisseur',
            text: 'Une personne ou une entreprise qui travaille pour vous, comme un plombier.',
          },
          {
            term: 'Société',
            text: 'Le bailleur ou l’agence pour qui travaille un utilisateur ; toutes ses données sont tenues à part.',
          },
          {
            term: 'Rôle',
            text: 'Ce qu’un utilisateur peut faire : Administrateur, Administrateur de la société, Éditeur ou Lecteur.',
          },
          {
            term: 'CAPTCHA',
            text: 'L’image de caractères que vous recopiez à la connexion et à l’inscription, pour montrer que vous êtes une personne.',
          },
          { term: 'Export', text: 'Une copie d’une liste dans un fichier Excel (xlsx) ou PDF.' },
          {
            term: 'Annulation',
            text: 'Ce qui arrive à un paiement erroné : il reste, avec son reçu marqué annulé, et ne compte plus.',
          },
          {
            term: 'Solde d’ouverture',
            text: 'Ce que devait un locataire (ou ce qu’il avait payé d’avance) le jour où son bail commence à être suivi dans Kodi.',
          },
          {
            term: 'Écriture',
            text: 'Un mouvement d’argent dans la comptabilité : des comptes débités et crédités de montants égaux.',
          },
          {
            term: 'Ligne de relevé',
            text: 'Une transaction d’un relevé mobile money ou bancaire envoyé, rapprochée d’un bail.',
          },
          {
            term: 'Remise',
            text: 'Une pénalité ou des frais retirés de ce que doit un locataire, avec leur motif.',
          },
        ],
      },
    ],
  },
];
