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
 * The Help Center in Kiswahili (issue 30): help-topics.ts's topics, blocks and numbers, said in
 * Kiswahili (the glossary's words: docs/glossary.md; 'Kodi' the product, 'kodi' the rent). Change it
 * with the English.
 */

const roleLabels: Record<StaffRoleName, string> = {
  admin: 'Msimamizi',
  company_admin: 'Msimamizi wa kampuni',
  editor: 'Mhariri',
  viewer: 'Mtazamaji',
};

const roleDescriptions: Record<StaffRoleName, string> = {
  admin:
    'Hufanya kila kitu katika kampuni yake, pamoja na kufuta rekodi, na husimamia watumiaji na majukumu ya mfumo mzima.',
  company_admin:
    'Huendesha kampuni: mipangilio yake na kazi ya kila siku, ujumbe, kumbukumbu za ukaguzi, hesabu (akaunti, maingizo ya daftari, kufunga kipindi), misamaha, kubatilisha malipo na ruhusa za wapangaji kwenye tovuti yao. Husoma mengine bila kuongeza wala kuhariri rekodi.',
  editor:
    'Huongeza rekodi na kuhariri nyumba, wapangaji, mikataba ya upangaji, malipo na maombi ya matengenezo, huingiza faili na kulinganisha taarifa za akaunti. Hafuti chochote; hubatilisha tu malipo aliyoyarekodi leo.',
  viewer: 'Husoma data ya kampuni bila kuibadilisha.',
};

const statementSourceLabels: Record<StatementSource, string> = {
  mtn_momo: 'MTN Mobile Money',
  airtel_money: 'Airtel Money',
  bank: 'Taarifa ya akaunti ya benki',
  custom: 'Nyingine (oanisha safu)',
};

export const helpTopics: HelpTopic[] = [
  {
    id: 'getting-started',
    title: 'Kuanza',
    blocks: [
      p(
        'Kodi huweka biashara ya upangishaji ya kampuni mahali pamoja: nyumba, wapangaji, mikataba ya upangaji, malipo pamoja na risiti zake, maombi ya matengenezo, matumizi, wasambazaji, wafanyakazi na mishahara yao. Kila unachokiona ni mali ya kampuni yako mwenyewe.',
      ),
      list(
        'Ingia kwa anwani yako ya barua pepe, nenosiri lako na herufi zinazoonekana kwenye picha ya CAPTCHA. Wewe ni mgeni? Chagua Jisajili kwenye ukurasa wa kuingia ili kufungua akaunti.',
        'Akaunti mpya inaweza kuingia mara moja, lakini inaonyesha ilani kwamba inasubiri ruhusa hadi msimamizi aipe jukumu.',
        'Menyu iliyo upande wa kushoto (kitufe cha menyu kwenye upau wa juu, ukiwa kwenye simu) inakupeleka kwenye kurasa ambazo jukumu lako linaruhusu. Kila sehemu yake inaweza kukunjwa.',
        'Orodha zina kisanduku cha kutafuta juu yake, safu nyingi zinaweza kupangwa kwa kubofya kichwa chake, na orodha ndefu hugawanywa katika kurasa.',
        'Kitufe cha Hamisha cha orodha huhifadhi mistari inayolingana na utafutaji wako kama faili la Excel (xlsx) au PDF.',
        'Ujumbe kuhusu ulichofanya huonekana chini ya skrini; Funga huuondoa.',
      ),
    ],
  },
  {
    id: 'dashboard',
    title: 'Dashibodi',
    blocks: [
      p('Nyumbani ni dashibodi ya kampuni yako. Kadi nne zinahesabu:'),
      list(
        'Nyumba zilizo wazi: nyumba ambazo hali yake ni Inapatikana.',
        'Matengenezo yanayosubiri: maombi ya matengenezo ambayo hali yake ni Wazi.',
        'Malipo ya mwezi huu: malipo ya tarehe za mwezi huu wa kalenda ambayo hayasubiri.',
        'Malipo yasiyokamilika: malipo ambayo hali yake ni Yanasubiri.',
      ),
      p(
        'Kila kadi ina kiungo cha Ona yote kinachopeleka kwenye orodha yake. Chini yake kuna orodha fupi (hadi 5 kila moja) za nyumba zilizo wazi, matengenezo yanayosubiri, malipo yaliyokamilika karibuni na matumizi ya karibuni, pamoja na jedwali la malipo yasiyokamilika (yanayosubiri).',
      ),
      p(
        `Dashibodi hujisasisha yenyewe kila dakika ${DASHBOARD_REFRESH_MINUTES} ikiwa wazi; pakia upya ukurasa ili kuona mabadiliko mara moja.`,
      ),
    ],
  },
  {
    id: 'properties',
    title: 'Majengo',
    blocks: [
      p(
        'Jengo ni jengo au mtaa wa makazi (estate) wenye nyumba za kupangisha: jina lake, anwani na aina yake (Makazi, Biashara au Mchanganyiko), na ukipenda meneja wake, simu yake na maelezo. Jengo la nyumba huchaguliwa kwenye fomu ya nyumba.',
      ),
      list(
        'Orodha ya majengo inaonyesha kila jengo lina nyumba ngapi, ngapi kati yake zina wapangaji (kwa hali yake) na sehemu yenye wapangaji (Ukaliaji %); unaweza kupanga kwa kila moja.',
        'Maelezo ya jengo yanaorodhesha nyumba zake pamoja na hali yake na mpangaji wa sasa, na viungo vya nyumba zake, malipo yake na malimbikizo yake.',
        'Nyumba, Mikataba ya upangaji, Malipo, Matumizi, Matengenezo, Malimbikizo, Ripoti za fedha na Nyumbani zina kichagua jengo: chagua jengo ili kuona rekodi zake tu (na kuhamisha hizo tu). Kodi hukumbuka chaguo lako unapohama kati ya kurasa hizo; futa kichagua ili kuona majengo yote tena.',
        'Ripoti za fedha za jengo huhesabu malipo na matumizi ya nyumba zake; mishahara na kamisheni ni za kampuni, si za jengo.',
        'Wasimamizi na wahariri huongeza na kuhariri majengo; wasimamizi pekee ndio huyafuta. Jengo ambalo bado lina nyumba haliwezi kufutwa.',
      ),
    ],
  },
  {
    id: 'units',
    title: 'Nyumba',
    blocks: [
      p(
        'Nyumba ni sehemu unayopangisha: jina lake, anwani, aina ya nyumba (Fleti, Nyumba, Studio au Biashara) na viwango vya kila mwezi, kila wiki na kila siku (kila kimoja zaidi ya 0), na ukipenda idadi ya vyumba vya kulala na bafu, ukubwa, namba za mita, huduma zilizopo na maelezo.',
      ),
      list(
        'Hali ni Inapatikana, Ina mpangaji au Matengenezo. Nyumba mpya huanza ikiwa Inapatikana. Mikataba ya upangaji ndiyo huisimamia hali hiyo: nyumba iliyo Inapatikana huwa Ina mpangaji mkataba wa upangaji unapoipangisha (siku mkataba unapoanza), na Inapatikana tena pasipo mkataba unaoipangisha tena (mkataba umeisha, umekatishwa au umefutwa). Nyumba iliyo kwenye Matengenezo haibadilishwi yenyewe kamwe, na unaweza kuweka hali yoyote kwa mkono.',
        'Kila nyumba inaweza kuwa na picha mbili (PNG, JPEG au WebP, zisizozidi MB 2 kila moja), zinazoonekana kwenye maelezo yake.',
        'Mshale ulio mwanzoni mwa mstari huonyesha maelezo.',
        'Wasimamizi na wahariri huongeza na kuhariri nyumba; wasimamizi pekee ndio huzifuta. Nyumba ambayo bado inatajwa na mikataba ya upangaji, malipo au rekodi nyingine haiwezi kufutwa hadi hizo ziondolewe.',
      ),
    ],
  },
  {
    id: 'tenants',
    title: 'Wapangaji',
    blocks: [
      p(
        'Mpangaji ana jina la kwanza na la mwisho, jinsia, namba ya simu na tarehe ya kuzaliwa (tarehe iliyopita), na ukipenda msimbo wa nchi kama +256, anwani ya barua pepe, namba ya kitambulisho au pasipoti na mtu wa kuwasiliana naye wakati wa dharura. Hali ni Hai au Si hai.',
      ),
      p('Wasimamizi na wahariri huongeza na kuhariri wapangaji; wasimamizi pekee ndio huwafuta.'),
    ],
  },
  {
    id: 'payments',
    title: 'Malipo',
    blocks: [
      p(
        'Malipo hurekodi pesa zilizopokelewa kutoka kwa mpangaji kwa ajili ya nyumba: tarehe, kiasi, njia ya malipo (Taslimu, Hundi, Uhamisho wa benki, Kadi ya benki au Pesa kwa simu), kipindi kinacholipiwa, kumbukumbu na maelezo.',
      ),
      list(
        "Mpangaji anahitaji mkataba wa upangaji wa nyumba hiyo, la sivyo Kodi hujibu 'Hakuna mkataba wa upangaji unaolingana na mpangaji huyu na nyumba hii.' Kila mpangaji anaonyeshwa pamoja na nyumba anayopanga. Ukichagua mpangaji, nyumba ya mkataba ambao malipo yanaenda, kiasi kinachodaiwa leo (au kodi inayofuata pasipo deni) na kipindi kinacholipiwa hujazwa; unachoandika mwenyewe hakibadilishwi kamwe.",
        'Hali ni Yanasubiri, Yamekamilika au Yameshindwa; malipo mapya huanza yakiwa Yamekamilika.',
        'Kila malipo hupata namba ya mfululizo yanaporekodiwa (PAY-000001, PAY-000002, ...). Malipo yanapokuwa Yamekamilika kwa mara ya kwanza pia hupata namba ya risiti (RCT-000001, RCT-000002, ...). Namba zote mbili huhesabiwa kwa kila kampuni, bila kuruka, na hazitumiwi tena kamwe; namba ya risiti haibadiliki ikishatolewa.',
        'Chapisha risiti, kwenye mstari wa malipo, hufungua risiti (namba ya risiti, tarehe, mpangaji, nyumba, njia ya malipo, hali na kiasi) pamoja na Pakua PDF kwa nakala ya A4. Msimbo wake wa QR humwezesha mtu yeyote kuhakiki risiti mtandaoni.',
        'Risiti haibadiliki kamwe: malipo yakishakamilika, kiasi, tarehe, mpangaji, nyumba, njia ya malipo na hali yake hufungwa. Kama kuna kosa, batilisha malipo (Futa malipo kwenye maelezo yake, pamoja na sababu) na urekodi malipo mapya. Malipo yaliyobatilishwa huhifadhi namba zake, risiti yake huandikwa IMEBATILISHWA, na hayahesabiwi tena katika salio, malimbikizo wala ripoti.',
        'Wasimamizi na wasimamizi wa kampuni hubatilisha malipo yoyote; mhariri hubatilisha tu malipo aliyoyarekodi siku hiyo hiyo. Malipo yaliyobatilishwa hayaonyeshwi kwenye orodha isipokuwa uchague Yamefutwa kwenye kichujio chake cha hali.',
        'Wasimamizi na wahariri huongeza na kuhariri malipo. Kufuta malipo yaliyokamilika huyabatilisha badala yake; malipo yanayosubiri na yaliyoshindwa yanaweza kufutwa na wasimamizi.',
      ),
    ],
  },
  {
    id: 'expenses',
    title: 'Matumizi',
    blocks: [
      p(
        'Matumizi yana tarehe, kiasi na aina: Mabomba, Marekebisho, Vifaa, Umeme, Usafi, Matengenezo, Ada za jengo la pamoja au Nyingine. Nyumba, maelezo na msambazaji si lazima.',
      ),
      p(
        'Wasimamizi na wahariri huongeza matumizi; wasimamizi pekee ndio huyahariri au kuyafuta. Ya karibuni zaidi huonekana kwenye dashibodi.',
      ),
    ],
  },
  {
    id: 'owners',
    title: 'Wamiliki',
    blocks: [
      p(
        'Wamiliki ni watu na kampuni ambazo majengo yao unayasimamia: jina la kwanza na la mwisho au jina la kampuni, simu, barua pepe, namba ya mlipakodi (TIN) na jinsi wanavyopokea malipo kwa mmiliki (uhamisho wa benki, pesa kwa simu, taslimu au hundi).',
      ),
      p(
        'Maelezo ya jengo yanaonyesha wamiliki wake pamoja na hisa zao na mkataba wake wa usimamizi (ada, ada ya chini kabisa, akiba inayozuiliwa na kodi ya mapato ya upangishaji inayokatwa). Hisa hujumlisha 100% na huhesabiwa kuanzia siku zinapowekwa; jengo lisilo na wamiliki ni mali ya kampuni yenyewe. Hakuna kinachoingizwa kwenye hesabu kwa ajili ya wamiliki bado.',
      ),
      p(
        'Kila jukumu husoma wamiliki; wasimamizi na wasimamizi wa kampuni huwaongeza na kubadilisha hisa zao; wasimamizi pekee ndio huwafuta.',
      ),
    ],
  },
  {
    id: 'vendors',
    title: 'Wasambazaji',
    blocks: [
      p(
        'Wasambazaji ni watu na makampuni wanaokufanyia kazi: jina, huduma wanayotoa na namba ya simu. Msambazaji anaweza kuchaguliwa kwenye maombi ya matengenezo na matumizi.',
      ),
      p('Wasimamizi na wahariri huongeza wasambazaji; wasimamizi pekee ndio huwahariri au kuwafuta.'),
    ],
  },
  {
    id: 'maintenance-requests',
    title: 'Maombi ya matengenezo',
    blocks: [
      p(
        'Ombi la matengenezo hurekodi kazi kwenye nyumba: nyumba, mpangaji, tarehe, maelezo, kipaumbele (Chini, Wastani au Juu), hali, msambazaji na gharama inayokadiriwa.',
      ),
      list(
        'Hali ni Wazi, Inashughulikiwa au Imefungwa, na yoyote kati yake inaweza kuchaguliwa wakati wowote. Maombi mapya huanza yakiwa Wazi, na kipaumbele cha Chini.',
        'Maombi yaliyo Wazi huhesabiwa kama Matengenezo yanayosubiri kwenye dashibodi.',
        'Wasimamizi na wahariri huongeza na kuhariri maombi; wasimamizi pekee ndio huyafuta.',
      ),
    ],
  },
  {
    id: 'occupancy',
    title: 'Mikataba ya upangaji',
    blocks: [
      p(
        'Rekodi ya ukaliaji ni mkataba wa upangaji: mpangaji yupi anakaa nyumba ipi, kuanzia tarehe ya kuanza hadi tarehe ya mwisho isiyo ya lazima (isiyo kabla ya kuanza), kwa kiwango kipi na mzunguko upi wa kodi (Kila mwezi, Kila wiki au Kila siku).',
      ),
      list(
        'Pia huhifadhi amana na hali yake (Imeshikiliwa, Imerudishwa au Imezuiliwa), muda wa notisi kwa siku, kama huduma (maji, umeme) zimejumuishwa, na hali ya mkataba: Hai, Umekatishwa au Umehuishwa.',
        'Hati ya mkataba wa upangaji (PDF, PNG au JPEG, isiyozidi MB 5) inaweza kuambatishwa na kupakuliwa kutoka kwenye maelezo ya rekodi.',
        'Wasimamizi na wahariri huongeza na kuhariri mikataba ya upangaji; wasimamizi pekee ndio huifuta.',
      ),
    ],
  },
  {
    id: 'imports',
    title: 'Kuingiza data',
    blocks: [
      p(
        `Ukurasa wa Ingiza data (Utawala; wasimamizi na wahariri) huleta rekodi kutoka kwenye faili la CSV au Excel (xlsx): majengo, nyumba, wapangaji, mikataba ya upangaji (pamoja na salio zake za kuanzia), malipo na matumizi. Faili moja hubeba aina moja ya rekodi, isiyozidi mistari ${MAX_IMPORT_ROWS.toLocaleString('en-US')} na MB ${IMPORT_MAX_MB}.`,
      ),
      list(
        'Pakua kiolezo cha aina unayoingiza ili kupata safu zake na mstari wa mfano. Kodi pia husoma vichwa vyako mwenyewe: majina ya sehemu na majina ya kawaida kama Phone number, Mobile, Rent, DOB au Gender.',
        'Pakia faili na Kodi hukuonyesha onyesho la awali kabla ya kuhifadhi chochote: mistari mingapi itaundwa, kusasishwa au kuachwa bila kubadilika, na kila tatizo kwa namba ya mstari na sehemu. Badilisha uoanishaji wa safu na onyesho la awali hutengenezwa upya. Pakua faili la makosa, rekebisha mistari na uiingize tena.',
        `Kuingiza huhifadhi mistari yote halali kwa pamoja, au hakuna kitu kama mmoja wao utashindwa. Onyesho la awali lisiloingizwa ndani ya saa ${IMPORT_EXPIRY_HOURS} huisha muda wake: pakia faili tena.`,
        'Rekodi zinazohusiana hutajwa kwa majina, kamwe si kwa namba: nyumba kwa jina lake, mpangaji kwa jina lake kamili au simu yake, au kwa kumbukumbu ya nje (safu ya External ref). Mstari ambao kumbukumbu yake ya nje tayari ipo husasisha rekodi hiyo, ukibadilisha tu safu zilizomo kwenye faili.',
        'Tarehe zinaweza kuandikwa 2026-03-05, 5 Mar 2026 au, kwa mpangilio unaouchagua, 05/03/2026. Kiasi kinaweza kubeba sarafu ya kampuni (UGX 1,200,000); sarafu nyingine inakataliwa. Namba za simu husomwa kama namba za nchi ya kampuni: 0772 123456 huwa +256772123456.',
        'Mkataba wa upangaji ulioanza zamani hutoza kodi ya kila kipindi tangu ulipoanza: onyesho la awali hujumlisha kodi hiyo ya nyuma. Upe mkataba salio la kuanzia (deni la mpangaji katika tarehe fulani) ili kodi ya baada ya tarehe hiyo tu itozwe.',
      ),
    ],
  },
  {
    id: 'combined-sheet',
    title: 'Jedwali la pamoja: wapangaji, mikataba na salio katika faili moja',
    blocks: [
      p(
        'Jedwali la mwenye nyumba mwenyewe linatosha kuanza: mstari mmoja kwa kila nyumba iliyopangishwa, pamoja na mpangaji, simu yake, nyumba, kodi, tarehe ya kuanza na deni la mpangaji leo. Liingize kama Mikataba ya upangaji (Utawala, Ingiza data): Kodi huunda kwa mkupuo mmoja wapangaji ambao haina, mikataba yao ya upangaji na salio za kuanzia.',
      ),
      list(
        'Safu ambazo Kodi husoma kwa majina yake ya kawaida: Tenant name (au Full name, Name), Phone (au Mobile, Tel), Unit, Rent, Start date (au Move in) na Opening balance (au Balance, Arrears, Amount owed); Sex, Date of birth na E-mail jedwali likiwa nazo. Badilisha uoanishaji wa safu kwenye onyesho la awali kama Kodi imeisoma vinginevyo.',
        'Nyumba lazima ziwe ndani ya Kodi kwanza (ziongeze, au ingiza faili la nyumba): safu ya Unit huzitaja. Mstari wa nyumba wenye kiwango cha mwezi pekee hupata viwango vyake vya wiki na siku kutoka humo (× 12 / 52 na × 12 / 365).',
        "Mpangaji hupatikana kwa jina (au simu, au kumbukumbu ya nje). Ambaye Kodi haina huongezwa kutoka kwenye mstari: jina zima hugawanywa, neno lake la mwisho likiwa jina la mwisho ('Brian Bbosa Okello' huwa Brian Bbosa / Okello); neno moja pekee hukataliwa, toa jina la kwanza na la mwisho. Mpangaji wa nyumba mbili huongezwa mara moja, akiwa na mikataba miwili ya upangaji.",
        'Namba za simu husomwa kama namba za nchi ya kampuni yako kwa namna yoyote zilivyoandikwa (0772 123456, +256 772-123-456, 256772123456). Namba isiyoweza kuwa ya nchi hiyo hufanya mstari ukataliwe. Wapangaji wawili wenye simu moja ni onyo, si kosa: malipo ya pesa kwa simu kutoka simu hiyo hayawezi kusema ni ya nani.',
        "Kile ambacho faili halina na rekodi zinahitaji (jinsia na tarehe ya kuzaliwa ya mpangaji mpya, tarehe ya salio la kuanzia) huulizwa mara moja chini ya 'Thamani ambazo faili halina': thamani hiyo huenda kwa kila mstari usio nayo, na onyesho la awali huionyesha '(imetolewa kwa kila mstari)'. Chagua Onyesha upya ili kuona mistari ikiwa nayo.",
        'Salio la kuanzia: deni la mpangaji katika tarehe ya salio la kuanzia (kiasi hasi kwa kodi iliyolipwa mapema). Hakuna kodi inayotozwa kwa vipindi vinavyodaiwa siku hiyo au kabla yake. Mkataba ulioanza zamani bila salio hutozwa kodi ya kila kipindi tangu ulipoanza; onyesho la awali hujumlisha kodi hiyo ya nyuma kabla hujaingiza.',
        'Kuingiza huhifadhi mistari yote halali au hakuna kitu, na husema imeongeza wapangaji wangapi. Pakua mistari iliyokataliwa, irekebishe na uingize faili hilo tena.',
      ),
    ],
  },
  {
    id: 'books',
    title: 'Hesabu',
    blocks: [
      p(
        'Kodi hutunza hesabu za kuingiza pande mbili (double-entry) kwa ajili ya kampuni yako. Kila tukio la pesa huingiza lenyewe ingizo moja la daftari lililo sawa pande zote: kodi inapodaiwa, ada za kuchelewa, ada nyingine, misamaha, malipo na ubatilishaji wake, amana, matumizi, mishahara na salio za kuanzia. Ingizo lililoingizwa halibadiliki kamwe; marekebisho ni ingizo lake lenyewe.',
      ),
      list(
        'Orodha ya akaunti (Fedha) huorodhesha akaunti za kampuni pamoja na salio zake: fedha taslimu mkononi, pesa kwa simu, benki, madeni ya wapangaji (wanachodaiwa), salio za ziada za wapangaji, amana zinazoshikiliwa, mapato ya kodi na ya ada, akaunti moja ya matumizi kwa kila aina, mishahara na zaidi. Wasimamizi na wasimamizi wa kampuni huongeza, hubadilisha majina na huzima akaunti; akaunti yenye maingizo haifutwi kamwe, huzimwa tu, na Kodi huendelea kuingiza kwenye akaunti zake za msingi hata zikiwa zimezimwa.',
        'Akaunti ambayo malipo huenda hufuata njia yake ya malipo: taslimu kwenda Fedha taslimu mkononi, pesa kwa simu kwenda Pesa kwa simu, uhamisho wa benki na hundi kwenda Benki. Matumizi hulipwa kutoka kwenye akaunti iliyochaguliwa kwenye fomu yake (Fedha taslimu mkononi kama chaguo la msingi).',
        'Daftari la kumbukumbu (Fedha) huorodhesha maingizo, ya karibuni kwanza, yanayotafutika kwa maelezo na kuchujwa kwa tarehe, akaunti na chanzo (Kodi inadaiwa, Malipo yamebatilishwa, Ingizo la mkono…). Fungua ingizo ili kuona mistari yake. Wasimamizi na wasimamizi wa kampuni huingiza ingizo la mkono: mistari miwili au zaidi ambayo debiti zake ni sawa na krediti zake.',
        'Kufunga hesabu (Daftari la kumbukumbu, Funga hesabu; wasimamizi na wasimamizi wa kampuni) hufunga kila siku hadi tarehe unayochagua: hakuna kinachoweza kuingizwa, kubatilishwa au kurekebishwa siku hiyo au kabla yake, na kufunga hakuwezi kutenguliwa. Kodi ambayo bado inadaiwa kwa siku hizo huingizwa siku ya kwanza iliyo wazi.',
        'Salio za kuanzia: mkataba wa upangaji unaweza kubeba deni la mpangaji (au alicholipa mapema, kama kiasi hasi) katika tarehe fulani, tarehe yake ya salio la kuanzia. Hakuna kodi inayotozwa kwa vipindi vinavyodaiwa siku hiyo au kabla yake, hivyo unaweza kuanza kutumia Kodi bila kuingiza yaliyopita.',
        'Kubatilisha malipo: risiti haibadiliki kamwe. Batilisha malipo (pamoja na sababu) na urekodi malipo mapya; ubatilishaji huingiza ingizo lake la kugeuza siku unapofanywa.',
      ),
      p(
        'Ripoti za fedha (Fedha, kila jukumu la wafanyakazi) huonyesha taarifa ya mapato na mtiririko wa fedha kwa kila mwezi pamoja na jumla ya kipindi, mizania ya majaribio, leja kuu ya akaunti na mizania, kwa kampuni au jengo moja, kila moja ikihamishwa kwenda Excel au PDF. Taarifa ya mapato ni kwa msingi wa fedha taslimu (malipo yaliyopokelewa, yaliyogawanywa kuwa kodi, ada za kuchelewa na ada nyingine) au kwa msingi wa madeni (kodi na ada zilipodaiwa).',
      ),
    ],
  },
  {
    id: 'collections',
    title: 'Ukusanyaji: taarifa za akaunti na ulinganishaji',
    blocks: [
      p(
        `Ukusanyaji (Fedha; wasimamizi na wahariri) hugeuza pesa ulizopokea kuwa malipo. Pakia taarifa ya akaunti kama inavyotoka kwa mtoa huduma (${Object.values(statementSourceLabels).join(', ')}, ukichagua chanzo chake) katika CSV au Excel: Kodi husoma kila muamala unaoingia na kutafuta mkataba wa upangaji unaoulipia.`,
      ),
      list(
        'Ulinganishaji husoma simu ya mlipaji (kwa namna yoyote ilivyoandikwa: 0772…, 256772…, +256772…) dhidi ya simu za wapangaji, na kumbukumbu dhidi ya majina ya nyumba na wapangaji na kumbukumbu za nje. Simu na kumbukumbu zinazotaja mkataba uleule, au simu na kiasi sawa kabisa na kodi inayodaiwa, ni uhakika; simu peke yake na kiasi kingine, au kumbukumbu peke yake, ni pendekezo.',
        'Kila mstari ni Haujalinganishwa, Umependekezwa, Umelinganishwa au Umepuuzwa. Kubali pendekezo, au linganisha kwa mkono (ukigawanya kiasi kati ya mikataba kama kinalipia zaidi ya mmoja); kila moja huwa malipo yaliyokamilika pamoja na risiti yake, ya tarehe ya siku ya muamala, kumbukumbu yake ikiwa namba ya muamala.',
        'Mipangilio ya kampuni, Ukusanyaji: washa uingizaji wa mara moja wa ulinganishaji wa uhakika ili malipo yake yafanywe bila kukusubiri.',
        'Puuza mstari usio wa kodi (pamoja na sababu). Pesa zinazotoka (utoaji, ada) hupuuzwa zenyewe. Muamala uleule katika taarifa ya pili hutambuliwa na kamwe hauhesabiwi mara mbili.',
        'Msimamizi anaweza kutengua ulinganishaji wa mstari: malipo yake hubatilishwa (risiti zake hubaki, zikiwa na alama ya kubatilishwa) na mstari unaweza kulinganishwa tena. Kufuta taarifa ya akaunti (wasimamizi na wasimamizi wa kampuni) hubatilisha kila malipo yaliyofanywa na mistari yake.',
        'Mtoa huduma wa malipo au mkusanyaji anaweza pia kutuma kila muamala kwa Kodi unapotokea (Mipangilio ya kampuni, webhook ya malipo); mistari hiyo hulinganishwa kwa njia ileile.',
      ),
    ],
  },
  {
    id: 'matching-memory',
    title: 'Kumbukumbu ya ulinganishaji: jinsi Ukusanyaji unavyojifunza',
    blocks: [
      p(
        "Mara nyingi kodi hutoka kwenye simu ambayo hakuna mpangaji anayo: ya ndugu, ya mwajiri, laini ya pili. Mara ya kwanza, Ukusanyaji hauwezi kujua ni ya nani na mstari husema hivyo ('Hakuna mpangaji mwenye simu hii'). Uulinganishe na mkataba wa upangaji kwa mkono mara moja, na Kodi hukumbuka.",
      ),
      list(
        'Kulinganisha mstari na mkataba mmoja (kwa mkono, au kwa kukubali pendekezo) huifundisha Kodi kwamba simu ya mlipaji huyo hulipia mkataba huo. Mstari usio na simu (uhamisho wa benki) hukumbukwa kwa kumbukumbu yake badala yake. Mstari uliogawanywa kati ya mikataba kadhaa haufundishi kitu.',
        "Mistari iliyo wazi ya simu hiyo iliyokwisha pakiwa hufuata mara moja, na kila mstari wake unaofuata huja vivyo hivyo: unapendekezwa kwa mkataba huo, pamoja na sababu 'Ililinganishwa kwa mkono awali: mstari wa simu hii ulienda kwenye mkataba huu'. Kilicholinganishwa kwa mkono hutangulia kile ambacho simu au kumbukumbu ingesema.",
        'Mipangilio ya kampuni, Ukusanyaji ikiingiza ulinganishaji wa uhakika mara moja, mistari hiyo hulinganishwa na malipo yake kufanywa bila kukusubiri.',
        'Kulinganisha kwa mkono mstari wa simu ileile na mkataba mwingine hubadilisha kile kilichojifunzwa: ulinganishaji wa mkono wa mwisho ndio hushinda.',
        "Kila mstari ulio wazi husema kwa nini uko wazi: 'Hakuna mpangaji mwenye simu hii', 'Wapangaji wawili wanatumia simu hii', 'Kiasi kinatofautiana na kodi inayodaiwa (UGX 800,000)', 'Mpangaji ana mikataba kadhaa: gawanya kiasi kati yake', na kadhalika. Isome kabla ya kukubali.",
      ),
    ],
  },
  {
    id: 'late-fees-reminders',
    title: 'Ada za kuchelewa, vikumbusho na ujumbe',
    blocks: [
      p(
        "Kila siku, katika saa ya kazi ya kila siku ya kampuni kwa saa za eneo lake (Mipangilio ya kampuni, Kazi ya kila siku), Kodi hutekeleza nyongeza za kodi zilizofikia wakati wake, huingiza ada za kuchelewa na kupanga vikumbusho vya kodi. 'Endesha kazi ya kila siku sasa' huiendesha mara moja na huorodhesha kila ada ya kuchelewa, nyongeza ya kodi na kikumbusho kilifanywa kwa ajili ya nani; siku haiendeshwi mara mbili kamwe, na siku zilizorukwa seva ikiwa imezimwa hufidiwa kwa tarehe zake zenyewe.",
      ),
      list(
        'Ada za kuchelewa (Mipangilio ya kampuni, Ada za kuchelewa): baada ya siku za msamaha, kodi ambayo bado haijalipwa hupata ada siku inayofuata, kiasi maalum au asilimia ya kisicholipwa, mara moja au tena kila wiki au kila mwezi ikiwa bado haijalipwa, hadi kikomo kisicho cha lazima kwa kila kodi. Mkataba wa upangaji unaweza kuwa na sera yake au kusamehewa. Kodi pekee ndiyo huzaa ada.',
        'Ada ya kuchelewa au ada nyingine haibadilishwi wala kufutwa kamwe: wasimamizi na wasimamizi wa kampuni huisamehe (Samehe, pamoja na sababu, katika Ada na tozo za mkataba), jambo linaloondoa kiasi chake kwenye deni la mpangaji.',
        `Vikumbusho (Mipangilio ya kampuni, Vikumbusho; hadi ${MAX_REMINDERS}): kabla ya tarehe ya kulipa, siku hiyo, au baada yake, kwa barua pepe na SMS, kila kimoja na kiolezo chake. Kikumbusho hutumwa tu pale ambapo sehemu ya kodi hiyo bado haijalipwa mwisho wa siku iliyotangulia, na kamwe si zaidi ya siku ${STALE_REMINDER_DAYS} kwa kuchelewa.`,
        'Risiti zinaweza kutumwa zenyewe, kwa barua pepe (pamoja na PDF) na SMS, malipo yanapokamilika (Mipangilio ya kampuni, Risiti na ujumbe; mpangaji anaweza kuachwa nje kwa machaguo yake mwenyewe ya barua pepe na SMS).',
        `Violezo (Ujumbe, Violezo) hubeba maneno ya kila kikumbusho na risiti, pamoja na vishika nafasi kama ${templateVariables
          .slice(0, 3)
          .map((v) => `{{${v}}}`)
          .join(', ')}. SMS ndefu kuliko herufi ${SMS_PART_LENGTH} hutumwa kama sehemu kadhaa.`,
        `Kumbukumbu ya ujumbe (Ujumbe) huonyesha kila ujumbe pamoja na anwani yake, hali yake na, kwa ujumbe ulioachwa au kushindwa, sababu: mpangaji hana anwani ya barua pepe au simu, hakuna mtoa huduma wa barua pepe au SMS aliyewekwa kwenye seva, au mtoa huduma amekataa. Utumaji ulioshindwa hujaribiwa tena hadi mara ${MAX_SEND_ATTEMPTS}; Tuma tena hupanga upya ujumbe ulioshindwa au ulioachwa.`,
      ),
    ],
  },
  {
    id: 'tenant-portal',
    title: 'Tovuti ya mpangaji',
    blocks: [
      p(
        'Wapangaji wana tovuti yao wenyewe, iliyotengenezwa kwa ajili ya simu: deni lao na lini kodi inayofuata inadaiwa, leja na taarifa yao ya akaunti, malipo yao pamoja na risiti, na maombi yao ya matengenezo.',
      ),
      list(
        `Mwalike mpangaji kutoka kwenye maelezo yake (Tovuti ya mpangaji: Alika kwa barua pepe au Alika kwa SMS; wasimamizi na wahariri). Kiungo hufanya kazi mara moja, kwa siku ${PORTAL_INVITATION_DAYS}, na humruhusu mpangaji kuchagua nenosiri; mwaliko mpya hubadilisha ule wa awali.`,
        `Wapangaji huingia kwenye /portal kwa anwani yao ya barua pepe au namba ya simu na nenosiri lao, au kwa msimbo wa dakika ${PORTAL_CODE_MINUTES} wanaotumiwa. Ukurasa wa kuingia wa wafanyakazi hauwaruhusu wapangaji kuingia.`,
        `Mpangaji anaweza kuripoti tatizo la kutengeneza pamoja na picha hadi ${MAX_PORTAL_PHOTOS}; ombi huonekana miongoni mwa maombi ya matengenezo, likiwa na alama kwamba limetumwa na mpangaji.`,
        'Tovuti huhifadhi ilichopakua mara ya mwisho, hivyo mpangaji bado anaweza kuisoma bila mtandao.',
        'Wasimamizi na wasimamizi wa kampuni huzima (na kuwasha tena) ruhusa ya mpangaji kwenye tovuti: kuizima humtoa mpangaji mara moja.',
      ),
    ],
  },
  {
    id: 'two-factor',
    title: 'Kuingia kwa hatua mbili',
    blocks: [
      p(
        'Kuingia kwa hatua mbili huomba msimbo kutoka kwenye programu ya uthibitishaji kwenye simu yako baada ya nenosiri, ili nenosiri lililoibiwa peke yake lisiweze kufungua akaunti yako.',
      ),
      list(
        'Iwashe katika Usalama wa akaunti (Wasifu kwenye menyu): changanua msimbo wa QR kwa programu ya uthibitishaji (Google Authenticator, Microsoft Authenticator, 1Password…) au andika ufunguo wake, kisha weka msimbo unaoonyeshwa na programu na nenosiri lako.',
        `Kisha unapata misimbo ${RECOVERY_CODE_COUNT} ya kurejesha, inayoonyeshwa mara moja tu: iweke mahali salama. Kila mmoja hukuingiza mara moja ukipoteza simu yako.`,
        `Unapoingia, baada ya nenosiri lako, weka msimbo wa sasa wa programu (au msimbo wa kurejesha) ndani ya dakika ${MFA_CHALLENGE_MINUTES}. Msimbo hufanya kazi mara moja. Misimbo isiyo sahihi huhesabiwa kama majaribio ya kuingia yaliyoshindwa, kama manenosiri yasiyo sahihi.`,
        'Kuiwasha hukutoa kila mahali pengine. Ili kuizima, weka msimbo wa sasa na nenosiri lako.',
        'Usalama wa akaunti pia huorodhesha mahali ulipoingia; maliza kikao usichokitambua, au vingine vyote kwa mara moja.',
        'Umepoteza simu yako na misimbo yako ya kurejesha? Msimamizi huweka upya kuingia kwako kwa hatua mbili (Majukumu ya watumiaji, Usalama wa kuingia), kisha unaiweka tena.',
        'Mipangilio ya kampuni, Kuingia inaweza kulazimisha kuingia kwa hatua mbili kwa kila mfanyakazi wa kampuni: mtumiaji asiyekuwa nako hupelekwa kwenye Usalama wa akaunti hadi akiwashe.',
      ),
    ],
  },
  {
    id: 'user-roles',
    title: 'Majukumu ya watumiaji',
    blocks: [
      p('Kila mfanyakazi anayetumia Kodi ana jukumu moja au zaidi:'),
      list(...staffRoleNames.map((r) => `${roleLabels[r]}: ${roleDescriptions[r]}`)),
      p(
        'Akaunti za wapangaji kwenye tovuti yao si watumiaji wa wafanyakazi: haziorodheshwi kwenye Majukumu ya watumiaji na husimamiwa katika sehemu ya Tovuti ya mpangaji kwenye maelezo ya mpangaji.',
      ),
      p(
        'Mtumiaji asiye na jukumu anaweza kuingia lakini haoni data yoyote hadi msimamizi ampe jukumu. Kila aliyeingia anaweza kubadilisha nenosiri lake mwenyewe (Wasifu, Badilisha nenosiri).',
      ),
      p(
        'Katika Majukumu ya watumiaji (wasimamizi pekee) unatafuta watumiaji kwa barua pepe, unaongeza mtumiaji, unahariri majukumu ya mtumiaji (angalau moja), unamwekea nenosiri jipya, unahariri wasifu wake, na unazima au kuwasha akaunti yake. Kuzima humtoa mtumiaji mara moja; nenosiri jipya humaliza vikao vyake vingine na kuondoa kufungiwa kuingia. Huwezi kujiondolea jukumu lako la msimamizi wala kuzima akaunti yako mwenyewe.',
      ),
      p(
        'Data ya biashara daima ni ya kampuni ya mtumiaji aliyeingia, hata kwa wasimamizi: msimamizi hufanya kazi katika kampuni nyingine kwa kubadilisha kampuni kwenye wasifu wake mwenyewe.',
      ),
    ],
  },
  {
    id: 'account',
    title: 'Akaunti',
    blocks: [
      list(
        `Jisajili huomba anwani yako ya barua pepe, jina la kwanza na la mwisho, kampuni yako, nenosiri la angalau herufi ${PASSWORD_MIN_LENGTH} (linaloandikwa mara mbili) na CAPTCHA. Unaingizwa mara moja na kusubiri jukumu.`,
        `Manenosiri yana angalau herufi ${PASSWORD_MIN_LENGTH}.`,
        `Baada ya majaribio ${LOCK_AFTER_FAILURES} ya kuingia yaliyoshindwa mfululizo kwa anwani moja ya barua pepe, anwani hiyo hufungiwa kwa dakika ${LOCK_MINUTES}, hata kwa nenosiri sahihi. Kuingia kwa mafanikio huanza hesabu upya; CAPTCHA isiyo sahihi haihesabiwi.`,
        `Umesahau nenosiri lako? Chagua 'Umesahau nenosiri?' kwenye ukurasa wa kuingia na uweke anwani yako ya barua pepe. Ikiwa imesajiliwa utapokea barua pepe yenye kiungo kinachofanya kazi mara moja, ndani ya dakika ${RESET_TOKEN_MINUTES}. Kuweka nenosiri jipya humaliza vikao vyako vyote.`,
        'Badilisha nenosiri (Wasifu kwenye menyu) huomba nenosiri lako la sasa na jipya mara mbili. Baadaye vikao vyako vyote huisha, hiki pia, na unaingia tena.',
        'Ingia kwa Google hufanya kazi msimamizi akiwa ameiweka, kwa akaunti hai ya Kodi yenye anwani ileile ya barua pepe iliyothibitishwa kama akaunti yako ya Google. Haiundi akaunti kamwe.',
        'Toka iko kwenye menyu ya akaunti juu kulia. Akaunti iliyozimwa haiwezi kuingia.',
      ),
    ],
  },
  {
    id: 'faq',
    title: 'Maswali yanayoulizwa mara kwa mara',
    blocks: [
      {
        kind: 'qa',
        items: [
          {
            q: 'Nimejisajili lakini sioni data yoyote.',
            a: 'Akaunti yako bado haina jukumu. Mwombe msimamizi akupe jukumu kwenye Majukumu ya watumiaji, kisha pakia upya ukurasa au uingie tena.',
          },
          {
            q: 'Siwezi kusoma CAPTCHA.',
            a: 'Bofya picha, au kitufe cha kuonyesha upya kilicho kando yake, ili upate mpya. Kila jaribio huitumia picha, hivyo mpya huonekana baada ya kila jaribio.',
          },
          {
            q: 'Kuingia kwangu kunakataliwa hata kwa nenosiri sahihi.',
            a: `Baada ya majaribio ${LOCK_AFTER_FAILURES} yaliyoshindwa anwani hufungiwa kwa dakika ${LOCK_MINUTES}: subiri, au mwombe msimamizi akuwekee nenosiri jipya, jambo linaloondoa kufungiwa. Akaunti iliyozimwa haiwezi kuingia kabisa.`,
          },
          {
            q: 'Kiungo cha kuweka upya hakifanyi kazi.',
            a: `Kiungo cha kuweka upya hufanya kazi mara moja, kwa dakika ${RESET_TOKEN_MINUTES}. Omba kipya kwenye ukurasa wa Umesahau nenosiri.`,
          },
          {
            q: "Kwa nini 'Ingia kwa Google' imefifia?",
            a: 'Kuingia kwa Google hakujawekwa kwenye mfumo huu.',
          },
          {
            q: 'Kwa nini siwezi kufuta rekodi?',
            a: 'Wasimamizi pekee ndio hufuta, na rekodi ambayo bado inatajwa na nyingine haiwezi kufutwa: Kodi hutaja kinachoitumia bado. Viondoe hivyo kwanza.',
          },
          {
            q: 'Kodi inasema rekodi imebadilishwa na mtu mwingine.',
            a: 'Mtu aliihifadhi baada ya wewe kuifungua. Pakia upya ili kuona toleo la karibuni, kisha fanya badiliko lako tena.',
          },
          {
            q: 'Kiasi huonyeshwa kwa sarafu gani?',
            a: 'Kwa sarafu ya kampuni yako (UGX kampuni isipokuwa na sarafu).',
          },
          {
            q: 'Nitapata wapi risiti?',
            a: 'Kwenye Malipo, chagua Chapisha risiti kwenye mstari wa malipo hayo. Malipo huwa na namba ya risiti yakishakamilika.',
          },
        ],
      },
    ],
  },
  {
    id: 'glossary',
    title: 'Msamiati',
    blocks: [
      {
        kind: 'terms',
        items: [
          { term: 'Nyumba', text: 'Sehemu unayopangisha: fleti, nyumba, studio au eneo la biashara.' },
          { term: 'Mpangaji', text: 'Mtu anayepanga nyumba.' },
          {
            term: 'Rekodi ya ukaliaji (mkataba wa upangaji)',
            text: 'Mpangaji yupi anakaa nyumba ipi, tangu lini, kwa kiwango kipi.',
          },
          { term: 'Mzunguko wa kodi', text: 'Kodi inadaiwa mara ngapi: kila mwezi, kila wiki au kila siku.' },
          {
            term: 'Amana',
            text: 'Pesa zinazoshikiliwa kwa ajili ya mkataba wa upangaji: imeshikiliwa, imerudishwa au imezuiliwa.',
          },
          {
            term: 'Namba ya mfululizo ya malipo',
            text: 'Namba ambayo kila malipo hupata yanaporekodiwa, kama PAY-000001.',
          },
          {
            term: 'Namba ya risiti',
            text: 'Namba ambayo malipo hupata yanapokamilika kwa mara ya kwanza, kama RCT-000001.',
          },
          { term: 'Matengenezo yanayosubiri', text: 'Ombi la matengenezo ambalo hali yake ni Wazi.' },
          { term: 'Malipo yasiyokamilika', text: 'Malipo ambayo hali yake ni Yanasubiri.' },
          { term: 'Msambazaji', text: 'Mtu au kampuni inayokufanyia kazi, kama fundi bomba.' },
          {
            term: 'Kampuni',
            text: 'Mwenye nyumba au wakala ambaye mtumiaji humfanyia kazi; data yake yote hutunzwa kando.',
          },
          {
            term: 'Jukumu',
            text: 'Kile mtumiaji anachoruhusiwa kufanya: Msimamizi, Msimamizi wa kampuni, Mhariri au Mtazamaji.',
          },
          {
            term: 'CAPTCHA',
            text: 'Picha ya herufi unazoandika unapoingia na kujisajili, kuonyesha kwamba wewe ni binadamu.',
          },
          { term: 'Kuhamisha', text: 'Nakala ya orodha kama faili la Excel (xlsx) au PDF.' },
          {
            term: 'Kubatilisha',
            text: 'Kinachotokea kwa malipo yenye kosa: yanabaki, risiti yake ikiwa na alama ya kubatilishwa, na hayahesabiwi tena.',
          },
          {
            term: 'Salio la kuanzia',
            text: 'Deni la mpangaji (au alicholipa mapema) siku ambayo mkataba wa upangaji unaanza kutunzwa ndani ya Kodi.',
          },
          {
            term: 'Ingizo la daftari',
            text: 'Tukio moja la pesa katika hesabu: akaunti zinazotolewa (debiti) na kuwekewa (krediti) kiasi sawa.',
          },
          {
            term: 'Mstari wa taarifa ya akaunti',
            text: 'Muamala mmoja wa taarifa ya akaunti ya pesa kwa simu au ya benki iliyopakiwa, uliolinganishwa na mkataba wa upangaji.',
          },
          {
            term: 'Msamaha',
            text: 'Ada ya kuchelewa au ada nyingine iliyoondolewa kwenye deni la mpangaji, pamoja na sababu yake.',
          },
        ],
      },
    ],
  },
];
