import { ContentType, MEDIA_TYPES, multipartPartsOf } from '@app/domain';
import { readdirSync, readFileSync } from 'node:fs';
import { join } from 'node:path';
import { curlconverterReadings, CurlconverterRequest } from '../../../../../../tools/import-peers/curl-peer';
import { ConnectorDraft, ImportDraft, ImportSourceError } from '../connector-draft';
import { importCurl } from './import-curl';
import { matchMediaType } from './media-type';

/** The corpus: real commands nobody here wrote (test/fixtures/import/curl/README.md names each one's origin). */
const CORPUS = join(__dirname, '../../../../../../test/fixtures/import/curl');

// Enum fields as their string values, as an API client reads them.
type Expected = { connectors: Array<Record<string, unknown>>; warnings: string[] } | { refused: string };

/** What each corpus command imports as, exactly (warnings as `CODE where`), or the refusal it gets. */
const EXPECTED: Record<string, Expected> = {
  'issues/curl-for-win-17-powershell.sh': {
    refused: 'source line 1: a PowerShell backtick continuation is not read: copy the command as "cURL (bash)" (POSIX quoting) instead',
  },
  'issues/curl-to-postman-38-charset.sh': {
    connectors: [
      {
        where: 'line 1',
        name: 'POST localhost:9999/myApi',
        requestType: 'POST',
        url: 'http://localhost:9999/myApi',
        headers: [{ header: 'Content-Type', value: 'application/json;charset=UTF-8' }],
        contentType: 'APPLICATION_JSON',
        body: '{"name":"d4"}',
        authType: 'AUTH_NONE',
        credentials: [],
      },
    ],
    warnings: ['IGNORED_OPTION line 4, --compressed'],
  },
  'issues/hoppscotch-2004-insomnia-url-option.sh': {
    connectors: [
      {
        where: 'line 1',
        name: 'POST localhost:3000/auth/login',
        requestType: 'POST',
        url: 'http://localhost:3000/auth/login',
        headers: [],
        contentType: 'APPLICATION_JSON',
        body: '{\n\t"email": "example@example.com",\n\t"password": "password"\n}',
        authType: 'AUTH_NONE',
        credentials: [],
      },
    ],
    warnings: [],
  },
  'issues/hoppscotch-3109-mailgun-get-urlencode.sh': {
    connectors: [
      {
        where: 'line 1',
        name: 'GET api.mailgun.net/v3/YOUR_DOMAIN_NAME/events',
        requestType: 'GET',
        url: 'https://api.mailgun.net/v3/YOUR_DOMAIN_NAME/events?begin=Fri%2C%203%20May%202013%2009%3A00%3A00%20-0000&ascending=yes&limit=25&pretty=yes&recipient=joe%40example.com',
        headers: [],
        contentType: 'NONE',
        body: '',
        authType: 'AUTH_BASIC',
        credentials: [{ field: 'basicToken', value: 'YXBpOllPVVJfQVBJX0tFWQ==', where: 'line 1, --user' }],
      },
    ],
    warnings: ['IGNORED_OPTION line 1, -s'],
  },
  'issues/hoppscotch-477-get-data.sh': {
    connectors: [
      {
        where: 'line 1',
        name: 'GET api.github.com/repos/vmg/redcarpet/issues',
        requestType: 'GET',
        url: 'https://api.github.com/repos/vmg/redcarpet/issues?state=closed',
        headers: [],
        contentType: 'NONE',
        body: '',
        authType: 'AUTH_NONE',
        credentials: [],
      },
    ],
    warnings: [],
  },
  'issues/kong-3805-output-and-broken-bearer.sh': {
    refused: 'source line 3, --header: the header value must not contain CR, LF or NUL characters: HTTP cannot carry it',
  },
  'issues/n8n-11662-data-urlencode.sh': {
    connectors: [
      {
        where: 'line 1',
        name: 'POST www.linkedin.com/oauth/v2/introspectToken',
        requestType: 'POST',
        url: 'https://www.linkedin.com/oauth/v2/introspectToken',
        headers: [],
        contentType: 'APPLICATION_FORM_URLENCODED',
        body: 'token=%3CTOKEN%3E&client_id=%3CID%3E&client_secret=%3CSecret%3E',
        authType: 'AUTH_NONE',
        credentials: [],
      },
    ],
    warnings: ['IGNORED_OPTION line 1, --location'],
  },
  'issues/n8n-12390-data-urlencode-access-token.sh': {
    connectors: [
      {
        where: 'line 1',
        name: 'POST aip.baidubce.com/rest/2.0/ocr/v1/idcard',
        requestType: 'POST',
        url: 'https://aip.baidubce.com/rest/2.0/ocr/v1/idcard',
        headers: [{ header: 'Accept', value: 'application/json' }],
        contentType: 'APPLICATION_FORM_URLENCODED',
        body: 'id_card_side=front&image=%2F9j%2F4AAQSkZJRgABAQEBLAEsAAD%2FtN%2BdMR%2F%2F9k%3D&detect_ps=false&detect_risk=false&detect_quality=false&detect_photo=false&detect_card=false&detect_direction=false',
        authType: 'AUTH_API_KEY',
        apiKeyName: 'access_token',
        apiKeyIn: 'QUERY',
        credentials: [{ field: 'apiKey', value: 'g8twCmCbr6d0e0kqOBL2t', where: 'line 1, URL query parameter access_token' }],
      },
    ],
    warnings: ['IGNORED_OPTION line 1, --location'],
  },
  'issues/n8n-13719-spaces-in-url.sh': { refused: 'source line 1: the URL is not an absolute http or https URL of at most 2048 characters with a host' },
  'issues/n8n-15295-api-key-variable.sh': {
    connectors: [
      {
        where: 'line 1',
        name: 'POST generativelanguage.googleapis.com/v1beta/models/gemini-embedding-exp-03-07:embedContent',
        requestType: 'POST',
        url: 'https://generativelanguage.googleapis.com/v1beta/models/gemini-embedding-exp-03-07:embedContent',
        headers: [],
        contentType: 'APPLICATION_JSON',
        body: '{"model": "models/gemini-embedding-exp-03-07",\n     "content": {\n     "parts":[{\n     "text": "What is the meaning of life?"}]}\n    }',
        authType: 'AUTH_API_KEY',
        apiKeyName: 'key',
        apiKeyIn: 'QUERY',
        credentials: [{ field: 'apiKey', variable: 'GEMINI_API_KEY', where: 'line 1, URL query parameter key' }],
      },
    ],
    warnings: [],
  },
  'issues/n8n-16798-bearer-json.sh': {
    connectors: [
      {
        where: 'line 1',
        name: 'POST api.firecrawl.dev/v1/extract',
        requestType: 'POST',
        url: 'https://api.firecrawl.dev/v1/extract',
        headers: [],
        contentType: 'APPLICATION_JSON',
        body: '{\n      "urls": [\n        "https://firecrawl.dev/", \n        "https://docs.firecrawl.dev/", \n        "https://www.ycombinator.com/companies"\n      ],\n      "prompt": "Extract the company mission, whether it supports SSO, whether it is open source, and whether it is in Y Combinator from the page.",\n      "schema": {\n        "type": "object",\n        "properties": {\n          "company_mission": {\n            "type": "string"\n          },\n          "supports_sso": {\n            "type": "boolean"\n          },\n          "is_open_source": {\n            "type": "boolean"\n          },\n          "is_in_yc": {\n            "type": "boolean"\n          }\n        },\n        "required": [\n          "company_mission",\n          "supports_sso",\n          "is_open_source",\n          "is_in_yc"\n        ]\n      }\n    }',
        authType: 'AUTH_BEARER',
        credentials: [{ field: 'bearerToken', value: 'YOUR_API_KEY', where: 'line 3, -H Authorization' }],
      },
    ],
    warnings: [],
  },
  'issues/n8n-22699-content-type-parameters.sh': {
    connectors: [
      {
        where: 'line 1',
        name: 'POST example.com/api',
        requestType: 'POST',
        url: 'https://example.com/api',
        headers: [{ header: 'content-type', value: 'application/json; charset=UTF-8' }],
        contentType: 'APPLICATION_JSON',
        body: '{"userId":"123","active":false,"visited":false}',
        authType: 'AUTH_NONE',
        credentials: [],
      },
    ],
    warnings: [],
  },
  'issues/n8n-25123-boolean.sh': {
    connectors: [
      {
        where: 'line 1',
        name: 'POST MEILISEARCH_URL/indexes/movies/search',
        requestType: 'POST',
        url: 'http://MEILISEARCH_URL/indexes/movies/search',
        headers: [],
        contentType: 'APPLICATION_JSON',
        body: '{\n    "q": "dragon",\n    "showRankingScore": true\n  }',
        authType: 'AUTH_NONE',
        credentials: [],
      },
    ],
    warnings: ['SCHEME_ASSUMED line 2'],
  },
  'issues/n8n-29394-integer.sh': {
    connectors: [
      {
        where: 'line 1',
        name: 'POST hostname',
        requestType: 'POST',
        url: 'http://hostname',
        headers: [],
        contentType: 'APPLICATION_JSON',
        body: '{"size":100}',
        authType: 'AUTH_NONE',
        credentials: [],
      },
    ],
    warnings: [],
  },
  'issues/n8n-5355-postman-basic.sh': { refused: 'source line 3, -H Authorization: the Basic credentials are not the Base64 of user-id:password (RFC 7617)' },
  'issues/n8n-9768-json-with-equals.sh': {
    connectors: [
      {
        where: 'line 1',
        name: 'POST scrapeninja.p.rapidapi.com/scrape',
        requestType: 'POST',
        url: 'https://scrapeninja.p.rapidapi.com/scrape',
        headers: [{ header: 'X-RapidAPI-Host', value: 'scrapeninja.p.rapidapi.com' }],
        contentType: 'APPLICATION_JSON',
        body: '{"url":"https://news.ycombinator.com","method":"GET","retryNum":1,"geo":"us","extractor":"// define function which accepts body and cheerio as args\\nfunction extract(input, cheerio) {\\n  let top = \\"gg\\";\\n  return { items };\\n}"}',
        authType: 'AUTH_API_KEY',
        apiKeyName: 'X-RapidAPI-Key',
        apiKeyIn: 'HEADER',
        credentials: [{ field: 'apiKey', value: 'YOUR-KEY', where: 'line 1, -H X-RapidAPI-Key' }],
      },
    ],
    warnings: [],
  },
  'issues/postman-7741-attached-header.sh': {
    connectors: [
      {
        where: 'line 1',
        name: 'GET google.com',
        requestType: 'GET',
        url: 'https://google.com',
        headers: [],
        contentType: 'NONE',
        body: '',
        authType: 'AUTH_BEARER',
        credentials: [{ field: 'bearerToken', value: 'key', where: 'line 1, -H Authorization' }],
      },
    ],
    warnings: ['IGNORED_OPTION line 1, -i', 'IGNORED_OPTION line 1, -k'],
  },
  'issues/reqable-2854-firefox-windows-cmd.sh': {
    refused: 'source line 1: Windows cmd quoting (^" and ^ at a line end) is not read: copy the command as "cURL (bash)" (POSIX quoting) instead',
  },
  'api-docs/sidekick-anthropic.sh': {
    connectors: [
      {
        where: 'line 1',
        name: 'POST api.anthropic.com/v1/messages',
        requestType: 'POST',
        url: 'https://api.anthropic.com/v1/messages',
        headers: [{ header: 'anthropic-version', value: '2023-06-01' }],
        contentType: 'APPLICATION_JSON',
        body: '{\n    "model": "claude-3-opus-20240229",\n    "max_tokens": 1024,\n    "messages": [\n        {"role": "user", "content": "Describe how Anthropic positions itself relative to OpenAI."}\n    ]\n}',
        authType: 'AUTH_API_KEY',
        apiKeyName: 'x-api-key',
        apiKeyIn: 'HEADER',
        credentials: [{ field: 'apiKey', variable: 'ANTHROPIC_API_KEY', where: 'line 2, -H x-api-key' }],
      },
    ],
    warnings: [],
  },
  'curlconverter/bash_redirect.sh': {
    connectors: [
      {
        where: 'line 2',
        name: 'POST localhost:28139/api/2.0/fo/auth/unix/',
        requestType: 'POST',
        url: 'http://localhost:28139/api/2.0/fo/auth/unix/?action=create&title=UnixRecord&username=root&password=abc123&ips=10.10.10.10',
        headers: [
          { header: 'X-Requested-With', value: 'curl' },
          { header: 'Content-Type', value: 'text/xml' },
        ],
        contentType: 'APPLICATION_XML',
        body: '',
        authType: 'AUTH_BASIC',
        credentials: [{ field: 'basicToken', value: 'VVNFUjpQQVNT', where: 'line 2, -u' }],
      },
    ],
    warnings: ['REDIRECT_IGNORED line 2, <', 'FILE_NOT_READ line 2, --data-binary'],
  },
  'curlconverter/commented_json_with_session.sh': {
    connectors: [
      {
        where: 'line 1',
        name: 'POST localhost:28139',
        requestType: 'POST',
        url: 'http://localhost:28139',
        headers: [{ header: 'Accept', value: 'application/json' }],
        contentType: 'APPLICATION_JSON',
        body: '{   }',
        authType: 'AUTH_NONE',
        credentials: [],
      },
    ],
    warnings: ['FILE_NOT_READ line 1, -b', 'IGNORED_OPTION line 1, -c'],
  },
  'curlconverter/delete.sh': {
    connectors: [
      {
        where: 'line 1',
        name: 'DELETE localhost:28139/page',
        requestType: 'DELETE',
        url: 'http://localhost:28139/page',
        headers: [],
        contentType: 'NONE',
        body: '',
        authType: 'AUTH_NONE',
        credentials: [],
      },
    ],
    warnings: [],
  },
  'curlconverter/get_basic_auth.sh': {
    connectors: [
      {
        where: 'line 1',
        name: 'GET localhost:28139/',
        requestType: 'GET',
        url: 'http://localhost:28139/',
        headers: [],
        contentType: 'NONE',
        body: '',
        authType: 'AUTH_BASIC',
        credentials: [{ field: 'basicToken', value: 'c29tZV91c2VybmFtZTpzb21lX3Bhc3N3b3Jk', where: 'line 1, -u' }],
      },
    ],
    warnings: [],
  },
  'curlconverter/get_basic_auth_no_user.sh': {
    connectors: [
      {
        where: 'line 1',
        name: 'GET localhost:28139/',
        requestType: 'GET',
        url: 'http://localhost:28139/',
        headers: [],
        contentType: 'NONE',
        body: '',
        authType: 'AUTH_BASIC',
        credentials: [{ field: 'basicToken', value: 'OnNvbWVfcGFzc3dvcmQ=', where: 'line 1, -u' }],
      },
    ],
    warnings: [],
  },
  'curlconverter/get_complex_url_params.sh': {
    connectors: [
      {
        where: 'line 1',
        name: 'GET localhost:28139/house-sitting/',
        requestType: 'GET',
        url: 'http://localhost:28139/house-sitting/?page=1&available=&available=1&location=0&city%5Bid%5D=0&city%5Blocality%5D=&city%5Blocality_text%5D=&city%5Badministrative_area_level_2%5D=&city%5Badministrative_area_level_2_text%5D=&city%5Badministrative_area_level_1%5D=&city%5Badministrative_area_level_1_text%5D=&city%5Bcountry%5D=&city%5Bcountry_text%5D=&city%5Blatitude%5D=&city%5Blongitude%5D=&city%5Bzoom%5D=&city%5Bname%5D=&region%5Bid%5D=0&region%5Blocality%5D=&region%5Blocality_text%5D=&region%5Badministrative_area_level_2%5D=&region%5Badministrative_area_level_2_text%5D=&region%5Badministrative_area_level_1%5D=&region%5Badministrative_area_level_1_text%5D=&region%5Bcountry%5D=&region%5Bcountry_text%5D=&region%5Blatitude%5D=&region%5Blongitude%5D=&region%5Bzoom%5D=&region%5Bname%5D=&country=&environment=&population=&period=0&date=2017-03-03&datestart=2017-03-03&dateend=2017-06-24&season=&duration=&isfd=&stopover=',
        headers: [],
        contentType: 'NONE',
        body: '',
        authType: 'AUTH_NONE',
        credentials: [],
      },
    ],
    warnings: [],
  },
  'curlconverter/get_cookies_from_file.sh': {
    connectors: [
      {
        where: 'line 1',
        name: 'GET localhost:28139/',
        requestType: 'GET',
        url: 'http://localhost:28139/',
        headers: [],
        contentType: 'NONE',
        body: '',
        authType: 'AUTH_NONE',
        credentials: [],
      },
    ],
    warnings: ['FILE_NOT_READ line 1, -b'],
  },
  'curlconverter/get_digest_auth.sh': {
    connectors: [
      {
        where: 'line 1',
        name: 'GET localhost:28139/',
        requestType: 'GET',
        url: 'http://localhost:28139/',
        headers: [],
        contentType: 'NONE',
        body: '',
        authType: 'AUTH_BASIC',
        credentials: [{ field: 'basicToken', value: 'c29tZV91c2VybmFtZTpzb21lX3Bhc3N3b3Jk', where: 'line 1, -u' }],
      },
    ],
    warnings: ['UNSUPPORTED_AUTH_SCHEME line 1, --digest'],
  },
  'curlconverter/get_header_with_quotes.sh': {
    connectors: [
      {
        where: 'line 2',
        name: 'GET localhost:28139',
        requestType: 'GET',
        url: 'http://localhost:28139',
        headers: [{ header: 'sec-ch-ua', value: '" Not A;Brand";v="99", "Chromium";v="92"' }],
        contentType: 'NONE',
        body: '',
        authType: 'AUTH_NONE',
        credentials: [],
      },
    ],
    warnings: ['IGNORED_OPTION line 4, --compressed'],
  },
  'curlconverter/get_insecure_full.sh': {
    connectors: [
      {
        where: 'line 1',
        name: 'GET localhost:28139',
        requestType: 'GET',
        url: 'http://localhost:28139',
        headers: [],
        contentType: 'NONE',
        body: '',
        authType: 'AUTH_NONE',
        credentials: [],
      },
    ],
    warnings: ['IGNORED_OPTION line 1, --insecure'],
  },
  'curlconverter/get_proxy_with_auth.sh': {
    connectors: [
      {
        where: 'line 1',
        name: 'GET localhost:28139',
        requestType: 'GET',
        url: 'http://localhost:28139',
        headers: [],
        contentType: 'NONE',
        body: '',
        authType: 'AUTH_NONE',
        credentials: [],
      },
    ],
    warnings: ['IGNORED_OPTION line 1, --proxy', 'IGNORED_OPTION line 1, -U'],
  },
  'curlconverter/get_referer.sh': {
    connectors: [
      {
        where: 'line 1',
        name: 'GET localhost:28139',
        requestType: 'GET',
        url: 'http://localhost:28139',
        headers: [
          { header: 'X-Requested-With', value: 'XMLHttpRequest' },
          { header: 'Referer', value: 'https://website.com' },
          { header: 'User-Agent', value: 'SimCity' },
        ],
        contentType: 'NONE',
        body: '',
        authType: 'AUTH_NONE',
        credentials: [],
      },
    ],
    warnings: [],
  },
  'curlconverter/get_silent.sh': {
    connectors: [
      {
        where: 'line 1',
        name: 'GET localhost:28139',
        requestType: 'GET',
        url: 'http://localhost:28139',
        headers: [],
        contentType: 'NONE',
        body: '',
        authType: 'AUTH_NONE',
        credentials: [],
      },
    ],
    warnings: ['IGNORED_OPTION line 1, --sil', 'SCHEME_ASSUMED line 1'],
  },
  'curlconverter/get_url_starting_with_http.sh': {
    connectors: [
      {
        where: 'line 1',
        name: 'GET httpbin.org/test',
        requestType: 'GET',
        url: 'http://httpbin.org/test',
        headers: [],
        contentType: 'NONE',
        body: '',
        authType: 'AUTH_NONE',
        credentials: [],
      },
    ],
    warnings: ['SCHEME_ASSUMED line 1'],
  },
  'curlconverter/get_user_agent.sh': {
    connectors: [
      {
        where: 'line 1',
        name: 'GET localhost:28139/vc/moviesmagic',
        requestType: 'GET',
        url: 'http://localhost:28139/vc/moviesmagic?p=5&pub=testmovie&tkn=817263812',
        headers: [
          { header: 'User-Agent', value: 'Mozilla Android6.1' },
          { header: 'x-msisdn', value: 'XXXXXXXXXXXXX' },
        ],
        contentType: 'NONE',
        body: '',
        authType: 'AUTH_NONE',
        credentials: [],
      },
    ],
    warnings: ['IGNORED_OPTION line 1, --trace-ascii', 'IGNORED_OPTION line 1, -i', 'IGNORED_OPTION line 1, -L'],
  },
  'curlconverter/get_with_all_numerical_data.sh': {
    connectors: [
      {
        where: 'line 1',
        name: 'POST localhost:28139/CurlToNode',
        requestType: 'POST',
        url: 'http://localhost:28139/CurlToNode',
        headers: [{ header: 'Accept', value: 'application/json' }],
        contentType: 'APPLICATION_JSON',
        body: '18233982904',
        authType: 'AUTH_NONE',
        credentials: [],
      },
    ],
    warnings: [],
  },
  'curlconverter/get_with_browser_headers.sh': {
    connectors: [
      {
        where: 'line 1',
        name: 'GET localhost:28139/',
        requestType: 'GET',
        url: 'http://localhost:28139/',
        headers: [
          { header: 'Accept-Encoding', value: 'gzip, deflate, sdch' },
          { header: 'Accept-Language', value: 'en-US,en;q=0.8' },
          {
            header: 'User-Agent',
            value: 'Mozilla/5.0 (Macintosh; Intel Mac OS X 10_10_1) AppleWebKit/537.36 (KHTML, like Gecko) Chrome/39.0.2171.95 Safari/537.36',
          },
          { header: 'Accept', value: 'text/html,application/xhtml+xml,application/xml;q=0.9,image/webp,*/*;q=0.8' },
          { header: 'Referer', value: 'http://www.wikipedia.org/' },
          {
            header: 'Cookie',
            value:
              'GeoIP=US:Albuquerque:35.1241:-106.7675:v4; uls-previous-languages=%5B%22en%22%5D; mediaWiki.user.sessionId=VaHaeVW3m0ymvx9kacwshZIDkv8zgF9y; centralnotice_buckets_by_campaign=%7B%22C14_enUS_dsk_lw_FR%22%3A%7B%22val%22%3A%220%22%2C%22start%22%3A1412172000%2C%22end%22%3A1422576000%7D%2C%22C14_en5C_dec_dsk_FR%22%3A%7B%22val%22%3A3%2C%22start%22%3A1417514400%2C%22end%22%3A1425290400%7D%2C%22C14_en5C_bkup_dsk_FR%22%3A%7B%22val%22%3A1%2C%22start%22%3A1417428000%2C%22end%22%3A1425290400%7D%7D; centralnotice_bannercount_fr12=22; centralnotice_bannercount_fr12-wait=14',
          },
          { header: 'Connection', value: 'keep-alive' },
        ],
        contentType: 'NONE',
        body: '',
        authType: 'AUTH_NONE',
        credentials: [],
      },
    ],
    warnings: ['IGNORED_OPTION line 1, --compressed', 'HEADER_MAY_HOLD_CREDENTIAL line 1, -H Cookie'],
  },
  'curlconverter/get_with_data.sh': {
    connectors: [
      {
        where: 'line 1',
        name: 'GET localhost:28139/synthetics/api/v3/monitors',
        requestType: 'GET',
        url: 'http://localhost:28139/synthetics/api/v3/monitors?test=2&limit=100&w=4',
        headers: [],
        contentType: 'NONE',
        body: '',
        authType: 'AUTH_API_KEY',
        apiKeyName: 'X-Api-Key',
        apiKeyIn: 'HEADER',
        credentials: [{ field: 'apiKey', value: '123456789', where: 'line 1, -H X-Api-Key' }],
      },
    ],
    warnings: ['IGNORED_OPTION line 1, -v'],
  },
  'curlconverter/get_with_env_var.sh': {
    connectors: [
      {
        where: 'line 1',
        name: 'GET localhost:28139/v2/images',
        requestType: 'GET',
        url: 'http://localhost:28139/v2/images?type=distribution',
        headers: [],
        contentType: 'APPLICATION_JSON',
        body: '',
        authType: 'AUTH_BEARER',
        credentials: [{ field: 'bearerToken', variable: 'DO_API_TOKEN', where: 'line 1, -H Authorization' }],
      },
    ],
    warnings: [],
  },
  'curlconverter/get_with_form.sh': {
    connectors: [
      {
        where: 'line 1',
        name: 'POST localhost:28139/v3',
        requestType: 'POST',
        url: 'http://localhost:28139/v3',
        headers: [],
        contentType: 'MULTIPART_FORM_DATA',
        body: '[{"name":"from","value":"test@tester.com"},{"name":"to","value":"devs@tester.net"},{"name":"subject","value":"Hello"},{"name":"text","value":"Testing the converter!"}]',
        authType: 'AUTH_BASIC',
        credentials: [{ field: 'basicToken', value: 'dGVzdDo=', where: 'line 1, --user' }],
      },
    ],
    warnings: ['IGNORED_OPTION line 1, -s'],
  },
  'curlconverter/get_with_header_without_value.sh': {
    connectors: [
      {
        where: 'line 1',
        name: 'GET localhost:28139/get',
        requestType: 'GET',
        url: 'http://localhost:28139/get',
        headers: [
          { header: 'getWorkOrderCancel', value: '' },
          { header: 'Content-Type', value: 'text/xml;charset=UTF-8' },
        ],
        contentType: 'APPLICATION_XML',
        body: '',
        authType: 'AUTH_NONE',
        credentials: [],
      },
    ],
    warnings: ['SCHEME_ASSUMED line 1'],
  },
  'curlconverter/head_without_http.sh': {
    connectors: [
      {
        where: 'line 1',
        name: 'HEAD localhost:28139/page',
        requestType: 'HEAD',
        url: 'http://localhost:28139/page',
        headers: [],
        contentType: 'NONE',
        body: '',
        authType: 'AUTH_NONE',
        credentials: [],
      },
    ],
    warnings: ['SCHEME_ASSUMED line 1'],
  },
  'curlconverter/j_patch_array.sh': {
    connectors: [
      {
        where: 'line 1',
        name: 'PATCH localhost:28139/patch',
        requestType: 'PATCH',
        url: 'http://localhost:28139/patch',
        headers: [],
        contentType: 'APPLICATION_FORM_URLENCODED',
        body: 'item[]=1&item[]=2&item[]=3',
        authType: 'AUTH_NONE',
        credentials: [],
      },
    ],
    warnings: [],
  },
  'curlconverter/multipart_post.sh': {
    connectors: [
      {
        where: 'line 1',
        name: 'POST localhost:28139/api/2.0/files/content',
        requestType: 'POST',
        url: 'http://localhost:28139/api/2.0/files/content',
        headers: [],
        contentType: 'MULTIPART_FORM_DATA',
        body: '[{"name":"attributes","value":"{\\"name\\":\\"tigers.jpeg\\", \\"parent\\":{\\"id\\":\\"11446498\\"}}"},{"name":"file","value":"","filename":"myfile.jpg"}]',
        authType: 'AUTH_BEARER',
        credentials: [{ field: 'bearerToken', value: 'ACCESS_TOKEN', where: 'line 1, -H Authorization' }],
      },
    ],
    warnings: ['FILE_NOT_READ line 1, -F'],
  },
  'curlconverter/multiple_commands.sh': {
    connectors: [
      {
        where: 'line 1',
        name: 'GET localhost:28139',
        requestType: 'GET',
        url: 'http://localhost:28139',
        headers: [],
        contentType: 'NONE',
        body: '',
        authType: 'AUTH_NONE',
        credentials: [],
      },
      {
        where: 'line 4',
        name: 'GET localhost:28139/second',
        requestType: 'GET',
        url: 'http://localhost:28139/second',
        headers: [],
        contentType: 'NONE',
        body: '',
        authType: 'AUTH_NONE',
        credentials: [],
      },
      {
        where: 'line 8',
        name: 'PUT localhost:28139/third',
        requestType: 'PUT',
        url: 'http://localhost:28139/third',
        headers: [],
        contentType: 'NONE',
        body: '',
        authType: 'AUTH_NONE',
        credentials: [],
      },
    ],
    warnings: ['REDIRECT_IGNORED line 8, <', 'SCHEME_ASSUMED line 1', 'SCHEME_ASSUMED line 4', 'FILE_NOT_READ line 8, --upload-file', 'SCHEME_ASSUMED line 8'],
  },
  'curlconverter/multiple_d_post.sh': {
    connectors: [
      {
        where: 'line 1',
        name: 'POST localhost:28139/webservices/rest.php',
        requestType: 'POST',
        url: 'http://localhost:28139/webservices/rest.php',
        headers: [],
        contentType: 'APPLICATION_FORM_URLENCODED',
        body: 'version=1.2&auth_user=fdgxf&auth_pwd=oxfdscds&json_data={ "operation": "core/get", "class": "Software", "key": "key" }',
        authType: 'AUTH_NONE',
        credentials: [],
      },
    ],
    warnings: ['IGNORED_OPTION line 1, -s'],
  },
  'curlconverter/multiple_urls.sh': {
    refused: 'source line 1: data (-d, --json) and an upload (-T) together: curl refuses to send them in one request; keep one',
  },
  'curlconverter/patch.sh': {
    connectors: [
      {
        where: 'line 2',
        name: 'PATCH localhost:28139/go/api/agents/adb9540a-b954-4571-9d9b-2f330739d4da',
        requestType: 'PATCH',
        url: 'http://localhost:28139/go/api/agents/adb9540a-b954-4571-9d9b-2f330739d4da',
        headers: [{ header: 'Accept', value: 'application/vnd.go.cd.v4+json' }],
        contentType: 'APPLICATION_JSON',
        body: '{\n        "hostname": "agent02.example.com",\n        "agent_config_state": "Enabled",\n        "resources": ["Java","Linux"],\n        "environments": ["Dev"]\n        }',
        authType: 'AUTH_BASIC',
        credentials: [{ field: 'basicToken', value: 'dXNlcm5hbWU6cGFzc3dvcmQ=', where: 'line 3, -u' }],
      },
    ],
    warnings: [],
  },
  'curlconverter/pipelines.sh': { refused: 'source line 1: "echo" is not curl: each line holds one curl command or a # comment' },
  'curlconverter/post_basic_auth_url_encoded_data.sh': {
    connectors: [
      {
        where: 'line 1',
        name: 'POST localhost:28139/api/oauth/token/',
        requestType: 'POST',
        url: 'http://localhost:28139/api/oauth/token/',
        headers: [],
        contentType: 'APPLICATION_FORM_URLENCODED',
        body: 'grant_type=client_credentials',
        authType: 'AUTH_BASIC',
        credentials: [{ field: 'basicToken', value: 'Zm9vOmJhcg==', where: 'line 1, -u' }],
      },
    ],
    warnings: [],
  },
  'curlconverter/post_data_binary_with_equals.sh': {
    connectors: [
      {
        where: 'line 1',
        name: 'POST localhost:28139/api/service.svc',
        requestType: 'POST',
        url: 'http://localhost:28139/api/service.svc?action=CreateItem&ID=-37&AC=1',
        headers: [
          {
            header: 'Cookie',
            value:
              'X-BackEndCookie=S-1-5-21-1234556-56678-12345-2345=alphanumericstring12345/anotheralphanumericstring12345/scsiAdf/P; ClientId=LoremIupsum; PrivateComputer=true; PBack=0; cadata=bx88rrCBehITlBWSozO2l2hlFGu//JjT1/k6dewX5shV32jANUZSMU6GR+M25B6YpBODEgXzxfIHDnvxNC6SJoaE/d8RWX3uDnbkd+m91jNhMXNSYIRYTJHVFdPG06AE; cadataTTL=NfDhBViTJMUdC+ir+6BYvg==; cadataKey=qUY+OLTD9V14CFK6/CUPyrJWMxl1FFqZFjB8/qcS0/q55eqGvP9bWvX+XuSYVv3hIGAn9QNPhIDK6NP9LwCBdu25f2BUFDUWJruGO8MW02izSWzRUnni00xWQq3Y3nNKvpvO+OIR641BPHVZ0+lzCw2Wt8uzEnryCWAjlleozF/XWjpTN4/AaTmcIjEZUDN+fo4494rD0mADtEHv2gmd5mhLe+iyii/L9nAB3UuiJomwbRbKgy22Tj8cyavmLC4ZaViqW9E102NOLU4FYLgdZVET+mbdg==; cadataIV=bTM88YL1zmz7FsBEB0y3nI2SrdSTy+KLxCpx2FRfIZYFo2spN1IHQMSCT76OXrg79sVPhyqXk+N9rOj6M9KsQl4KqMNVBcoXgp24POpgoTwd4FBmKtAYbd9SDErna3jrMO168ML9PDG18K3CnBf6YG1tsIs0gXOEP9LzHVmUPF7KCKqUFiOiZGWuwmPhl85eo77BbEpVN2JkPnzuQWn6tC0cY4f2cJDlr3Z23SrAUVwwXmgRg2DXfOF5MIEkpwYiiI6sABCD9rsSnE6zTXlvZg33hjiD/ywUV1ZWjI2M/4zBixa4s150+dOnMmvtEFs/nOMnvMJui4PEDlTA==; cadataSig=WL3hB+av7sO3bzjL+Efe5b4exnvQxSInH3U5jDvfnPcttSp0XUF3y/NB573C0CTBYuOH/40smFssXlrKhT9tG2ITivdSIIamOmarmC8XwFOv9qQIFMHofcO/jjRDMqF0qRk7WBAC2FgBQrf2Tvq7wk5IX/JHn6zhlgKALAAqH9L9JNC244etnjj9YNaMDYEHV2M2jVTu3FsELqw1rSSqp0hEBlh+aFBvYCBg5hS1mVI76ZCHZVa0OUejiH2yiZyJIKHUI+Sv0rpU3iiQNtIFmGEdwhoo/rga4s4Dc2UsJLQ8c0yGlZgflYs+7Q5gPr74/mTUin60ej/w3M0roUl3FQ==; UC=d8be544621964f3c9865b3ee872fd432; AppcacheVer=15.0.1236.3:en-usbase; X-OWA-CANARY=VOXQP6xtGkiNnv7E4rFt8TrmclqVFtQI4IJqZflrR7Wz9AMPkMsFoyAlquw1YGsTUxIkVouAcvk.',
          },
          { header: 'Origin', value: 'https://nih.mail.edu.fr' },
          { header: 'Accept-Encoding', value: 'gzip, deflate, br' },
          { header: 'X-EWS-TargetVersion', value: '2.5' },
          { header: 'Accept-Language', value: 'en-US,en;q=0.8' },
          { header: 'User-Agent', value: 'Mozilla/5.0 (Windows NT 10.0; Win64; x64) AppleWebKit/537.36 (KHTML, like Gecko) Chrome/54.0.2840.99 Safari/537.36' },
          { header: 'Action', value: 'CreateItem' },
          { header: 'X-Requested-With', value: 'XMLHttpRequest' },
          { header: 'Connection', value: 'keep-alive' },
          { header: 'X-OWA-CANARY', value: 'VOXQP6xtGkiNnv7E4rFt8TrmclqVFtQI4IJqZflrR7Wz9AMPkMsFoyAlquw1YGsTUxIkVouAcvk.' },
          { header: 'X-OWA-ActionName', value: 'CreateMessageForComposeSend' },
          { header: 'X-OWA-ActionId', value: '-37' },
          { header: 'X-OWA-ServiceUnavailableOnTransientError', value: 'true' },
          { header: 'Accept', value: '*/*' },
          { header: 'Referer', value: 'https://localhost/api/' },
          { header: 'X-OWA-ClientBuildVersion', value: '15.0.1236.3' },
          { header: 'X-OWA-CorrelationId', value: '2f11f8fb-f6c6-43a5-881d-8a1b242a4e70_148023102251337' },
          { header: 'DNT', value: '1' },
          { header: 'X-OWA-ClientBegin', value: '2016-11-27T07:17:02.513' },
          { header: 'X-OWA-Attempt', value: '1' },
          { header: 'Content-Type', value: 'application/json; charset=UTF-8' },
        ],
        contentType: 'APPLICATION_JSON',
        body: '{"__type":"CreateItemJsonRequest:#Exchange","Header":{"__type":"JsonRequestHeaders:#Exchange","RequestServerVersion":"Exchange2013","TimeZoneContext":{"__type":"TimeZoneContext:#Exchange","TimeZoneDefinition":{"__type":"TimeZoneDefinitionType:#Exchange","Id":"France Standard Time"}}},"Body":{"__type":"CreateItemRequest:#Exchange","Items":[{"__type":"Message:#Exchange","Subject":"API","Body":{"__type":"BodyContentType:#Exchange","BodyType":"HTML","Value":"<html><head><meta http-equiv=\\"Content-Type\\" content=\\"text/html; charset=UTF-8\\"><style type=\\"text/css\\" style=\\"display:none\\"><!-- p { margin-top: 0px; margin-bottom: 0px; }--></style></head><body dir=\\"ltr\\" style=\\"font-size:12pt;color:#000000;background-color:#FFFFFF;font-family:Calibri,Arial,Helvetica,sans-serif;\\"><p>API Test for NickC<br></p></body></html>"},"Importance":"Normal","From":null,"ToRecipients":[{"Name":"George LUCAS","EmailAddress":"George.LUCAS@nih.mail.edu.fr","RoutingType":"SMTP","MailboxType":"Mailbox","OriginalDisplayName":"George.LUCAS@nih.mail.edu.fr","SipUri":" "}],"CcRecipients":[],"BccRecipients":[],"Sensitivity":"Normal","IsDeliveryReceiptRequested":false,"IsReadReceiptRequested":false}],"ClientSupportsIrm":true,"OutboundCharset":"AutoDetect","MessageDisposition":"SendAndSaveCopy","ComposeOperation":"newMail"}}',
        authType: 'AUTH_NONE',
        credentials: [],
      },
    ],
    warnings: ['HEADER_MAY_HOLD_CREDENTIAL line 1, -H Cookie'],
  },
  'curlconverter/post_empty.sh': {
    connectors: [
      {
        where: 'line 1',
        name: 'POST localhost:28139',
        requestType: 'POST',
        url: 'http://localhost:28139',
        headers: [],
        contentType: 'APPLICATION_FORM_URLENCODED',
        body: '',
        authType: 'AUTH_NONE',
        credentials: [],
      },
    ],
    warnings: [],
  },
  'curlconverter/post_escaped_single_quotes_in_double_quotes.sh': {
    connectors: [
      {
        where: 'line 1',
        name: 'POST localhost:28139/',
        requestType: 'POST',
        url: 'http://localhost:28139/',
        headers: [],
        contentType: 'APPLICATION_FORM_URLENCODED',
        body: "foo=\\'bar\\'",
        authType: 'AUTH_NONE',
        credentials: [],
      },
    ],
    warnings: [],
  },
  'curlconverter/post_form.sh': {
    connectors: [
      {
        where: 'line 1',
        name: 'POST localhost:28139/post-to-me.php',
        requestType: 'POST',
        url: 'http://localhost:28139/post-to-me.php',
        headers: [],
        contentType: 'MULTIPART_FORM_DATA',
        body: '[{"name":"username","value":"davidwalsh"},{"name":"password","value":"something"}]',
        authType: 'AUTH_NONE',
        credentials: [],
      },
    ],
    warnings: [],
  },
  'curlconverter/post_json.sh': {
    connectors: [
      {
        where: 'line 1',
        name: 'POST localhost:28139',
        requestType: 'POST',
        url: 'http://localhost:28139',
        headers: [{ header: 'Accept', value: 'application/json' }],
        contentType: 'APPLICATION_JSON',
        body: '{ "drink": "coffe" }',
        authType: 'AUTH_NONE',
        credentials: [],
      },
    ],
    warnings: [],
  },
  'curlconverter/post_json_multiple_headers.sh': {
    connectors: [
      {
        where: 'line 1',
        name: 'POST localhost:28139/rest/login-sessions',
        requestType: 'POST',
        url: 'http://localhost:28139/rest/login-sessions',
        headers: [{ header: 'X-API-Version', value: '200' }],
        contentType: 'APPLICATION_JSON',
        body: '{"userName":"username123","password":"password123", "authLoginDomain":"local"}',
        authType: 'AUTH_NONE',
        credentials: [],
      },
    ],
    warnings: ['IGNORED_OPTION line 1, -v', 'IGNORED_OPTION line 1, -k'],
  },
  'curlconverter/post_number.sh': {
    connectors: [
      {
        where: 'line 1',
        name: 'POST localhost:28139',
        requestType: 'POST',
        url: 'http://localhost:28139',
        headers: [],
        contentType: 'APPLICATION_FORM_URLENCODED',
        body: '123',
        authType: 'AUTH_NONE',
        credentials: [],
      },
    ],
    warnings: [],
  },
  'curlconverter/post_quotes_inside_data.sh': {
    connectors: [
      {
        where: 'line 1',
        name: 'POST localhost:28139',
        requestType: 'POST',
        url: 'http://localhost:28139',
        headers: [],
        contentType: 'APPLICATION_FORM_URLENCODED',
        body: 'field=don%27t%20you%20like%20quotes',
        authType: 'AUTH_NONE',
        credentials: [],
      },
    ],
    warnings: ['SCHEME_ASSUMED line 1'],
  },
  'curlconverter/post_same_field_multiple_times.sh': {
    connectors: [
      {
        where: 'line 1',
        name: 'POST localhost:28139/',
        requestType: 'POST',
        url: 'http://localhost:28139/',
        headers: [],
        contentType: 'APPLICATION_FORM_URLENCODED',
        body: 'foo=bar&foo=&foo=barbar',
        authType: 'AUTH_NONE',
        credentials: [],
      },
    ],
    warnings: [],
  },
  'curlconverter/post_with_data_binary.sh': {
    connectors: [
      {
        where: 'line 1',
        name: 'POST localhost:28139/post',
        requestType: 'POST',
        url: 'http://localhost:28139/post',
        headers: [],
        contentType: 'APPLICATION_FORM_URLENCODED',
        body: '{"title":"china1"}',
        authType: 'AUTH_NONE',
        credentials: [],
      },
    ],
    warnings: [],
  },
  'curlconverter/post_with_double_quotes_inside_single_quotes.sh': {
    connectors: [
      {
        where: 'line 1',
        name: 'POST localhost:28139/',
        requestType: 'POST',
        url: 'http://localhost:28139/',
        headers: [],
        contentType: 'APPLICATION_FORM_URLENCODED',
        body: 'foo="bar"',
        authType: 'AUTH_NONE',
        credentials: [],
      },
    ],
    warnings: [],
  },
  'curlconverter/post_with_escaped_double_quotes.sh': {
    connectors: [
      {
        where: 'line 1',
        name: 'POST localhost:28139/',
        requestType: 'POST',
        url: 'http://localhost:28139/',
        headers: [],
        contentType: 'APPLICATION_FORM_URLENCODED',
        body: 'foo="bar"',
        authType: 'AUTH_NONE',
        credentials: [],
      },
    ],
    warnings: [],
  },
  'curlconverter/post_with_extra_whitespace.sh': {
    connectors: [
      {
        where: 'line 1',
        name: 'POST localhost:28139/api/library',
        requestType: 'POST',
        url: 'http://localhost:28139/api/library',
        headers: [{ header: 'accept', value: 'application/json' }],
        contentType: 'MULTIPART_FORM_DATA',
        body: '[{"name":"files","value":"","filename":"47.htz"},{"name":"name","value":"47"},{"name":"oldMediaId","value":"47"},{"name":"updateInLayouts","value":"1"},{"name":"deleteOldRevisions","value":"1"}]',
        authType: 'AUTH_NONE',
        credentials: [],
      },
    ],
    warnings: ['FILE_NOT_READ line 1, -F'],
  },
  'curlconverter/post_with_quotes_anywhere.sh': {
    connectors: [
      {
        where: 'line 1',
        name: 'POST localhost:28139',
        requestType: 'POST',
        url: 'http://localhost:28139',
        headers: [
          { header: 'A', value: "''a'" },
          { header: 'B', value: '"' },
          { header: 'Cookie', value: 'x=1\'; y=2"' },
        ],
        contentType: 'APPLICATION_FORM_URLENCODED',
        body: 'a=b&c="&d=\'',
        authType: 'AUTH_BASIC',
        credentials: [{ field: 'basicToken', value: 'b2wnOmFzZCI=', where: 'line 3, -u' }],
      },
    ],
    warnings: ['HEADER_MAY_HOLD_CREDENTIAL line 6, -H Cookie'],
  },
  'curlconverter/post_with_urlencoded_data.sh': {
    connectors: [
      {
        where: 'line 1',
        name: 'POST localhost:28139/echo/html/',
        requestType: 'POST',
        url: 'http://localhost:28139/echo/html/',
        headers: [
          { header: 'Origin', value: 'http://fiddle.jshell.net' },
          { header: 'Accept-Encoding', value: 'gzip, deflate' },
          { header: 'Accept-Language', value: 'en-US,en;q=0.8' },
          {
            header: 'User-Agent',
            value: 'Mozilla/5.0 (Macintosh; Intel Mac OS X 10_10_1) AppleWebKit/537.36 (KHTML, like Gecko) Chrome/39.0.2171.95 Safari/537.36',
          },
          { header: 'Accept', value: '*/*' },
          { header: 'Referer', value: 'http://fiddle.jshell.net/_display/' },
          { header: 'X-Requested-With', value: 'XMLHttpRequest' },
          { header: 'Connection', value: 'keep-alive' },
          { header: 'Content-Type', value: 'application/x-www-form-urlencoded; charset=UTF-8' },
        ],
        contentType: 'APPLICATION_FORM_URLENCODED',
        body: 'msg1=wow&msg2=such',
        authType: 'AUTH_NONE',
        credentials: [],
      },
    ],
    warnings: ['IGNORED_OPTION line 1, --compressed'],
  },
  'curlconverter/post_xpost.sh': {
    connectors: [
      {
        where: 'line 1',
        name: 'POST localhost:28139/api/xxxxxxxxxxxxxxxx',
        requestType: 'POST',
        url: 'http://localhost:28139/api/xxxxxxxxxxxxxxxx',
        headers: [],
        contentType: 'APPLICATION_FORM_URLENCODED',
        body: '{"keywords":"php","page":1,"searchMode":1}',
        authType: 'AUTH_NONE',
        credentials: [],
      },
    ],
    warnings: [],
  },
  'curlconverter/put_with_T_option.sh': {
    refused: 'source line 1: data (-d, --json) and an upload (-T) together: curl refuses to send them in one request; keep one',
  },
  'curlconverter/read_stdin.sh': {
    connectors: [
      {
        where: 'line 1',
        name: 'POST localhost:28139',
        requestType: 'POST',
        url: 'http://localhost:28139',
        headers: [],
        contentType: 'APPLICATION_FORM_URLENCODED',
        body: '',
        authType: 'AUTH_NONE',
        credentials: [],
      },
    ],
    warnings: ['FILE_NOT_READ line 1, --data', 'SCHEME_ASSUMED line 1'],
  },
  'curlconverter/redirect_variable_data.sh': {
    connectors: [
      {
        where: 'line 1',
        name: 'POST localhost:28139',
        requestType: 'POST',
        url: 'http://localhost:28139',
        headers: [],
        contentType: 'APPLICATION_FORM_URLENCODED',
        body: 'foo',
        authType: 'AUTH_NONE',
        credentials: [],
      },
    ],
    warnings: ['REDIRECT_IGNORED line 1, <', 'FILE_NOT_READ line 1, --data', 'SCHEME_ASSUMED line 1'],
  },
  'curlconverter/strange_http_method.sh': {
    refused: 'source line 1, -X: wHat is not a method a connector sends: GET, POST, PUT, PATCH, DELETE, HEAD, OPTIONS',
  },
  'curlconverter/upload_file.sh': {
    connectors: [
      {
        where: 'line 2',
        name: 'PUT localhost:28139/file.txt',
        requestType: 'PUT',
        url: 'http://localhost:28139/file.txt',
        headers: [],
        contentType: 'NONE',
        body: '',
        authType: 'AUTH_NONE',
        credentials: [],
      },
    ],
    warnings: ['FILE_NOT_READ line 2, --upload-file'],
  },
  'curlconverter/url_query.sh': {
    connectors: [
      {
        where: 'line 1, URL 1',
        name: 'GET localhost:28139',
        requestType: 'GET',
        url: 'http://localhost:28139?foo=bar&baz=qux',
        headers: [],
        contentType: 'NONE',
        body: '',
        authType: 'AUTH_NONE',
        credentials: [],
      },
      {
        where: 'line 1, URL 2',
        name: 'GET localhost:28139/',
        requestType: 'GET',
        url: 'http://localhost:28139/?prmsare=perurl&secondparam=yesplease&foo=bar&baz=qux',
        headers: [],
        contentType: 'NONE',
        body: '',
        authType: 'AUTH_NONE',
        credentials: [],
      },
      {
        where: 'line 1, URL 3',
        name: 'GET localhost:28139',
        requestType: 'GET',
        url: 'http://localhost:28139?trailingamper=shouldwork&foo=bar&baz=qux',
        headers: [],
        contentType: 'NONE',
        body: '',
        authType: 'AUTH_NONE',
        credentials: [],
      },
      {
        where: 'line 1, URL 4',
        name: 'GET localhost:28139',
        requestType: 'GET',
        url: 'http://localhost:28139?noequalshouldnt&foo=bar&baz=qux',
        headers: [],
        contentType: 'NONE',
        body: '',
        authType: 'AUTH_NONE',
        credentials: [],
      },
    ],
    warnings: [],
  },
};

function corpusFiles(): string[] {
  return ['issues', 'api-docs', 'curlconverter'].flatMap((folder) =>
    readdirSync(join(CORPUS, folder))
      .filter((file) => file.endsWith('.sh'))
      .map((file) => `${folder}/${file}`),
  );
}

function source(file: string): string {
  return readFileSync(join(CORPUS, file), 'utf8');
}

async function outcome(file: string): Promise<ImportDraft | ImportSourceError> {
  return importCurl(source(file), {}).catch((error: unknown) => {
    if (error instanceof ImportSourceError) return error;
    throw error;
  });
}

describe('importCurl on the corpus', () => {
  it('has an expectation for every corpus file', () => {
    expect(corpusFiles().sort()).toEqual(Object.keys(EXPECTED).sort());
  });

  it.each(Object.entries(EXPECTED))('%s', async (file, expected) => {
    const result = await outcome(file);
    if ('refused' in expected) {
      expect(result).toBeInstanceOf(ImportSourceError);
      expect((result as ImportSourceError).message).toBe(expected.refused);
      return;
    }
    expect(result).not.toBeInstanceOf(ImportSourceError);
    const draft = result as ImportDraft;
    expect(draft.connectors).toHaveLength(expected.connectors.length);
    draft.connectors.forEach((connector, index) => expect(connector).toMatchObject(expected.connectors[index]));
    expect(draft.warnings.map(({ code, where }) => `${code} ${where}`)).toEqual(expected.warnings);
  });
});

/** Where this importer and curlconverter read a command differently: the field and why. */
function differences(draft: ConnectorDraft, oracle: CurlconverterRequest): string[] {
  const found: string[] = [];
  if (oracle.method.toUpperCase() !== draft.requestType) found.push('method');
  if (withoutApiKey(oracle.raw_url, draft) !== draft.url) found.push('url');
  // Header names are case-insensitive, and headers of different names mean the same in any order (RFC 9110 5.3).
  const oracleHeaders = Object.entries(oracle.headers ?? {})
    .filter(([name]) => !/^(content-type|authorization)$/i.test(name) && name !== draft.apiKeyName)
    .map(([name, value]) => [name.toLowerCase(), value]);
  const headers = draft.headers.filter(({ header }) => !/^content-type$/i.test(header)).map(({ header, value }) => [header.toLowerCase(), value]);
  if (JSON.stringify(oracleHeaders.sort()) !== JSON.stringify(headers.sort())) found.push('headers');
  const contentType = Object.entries(oracle.headers ?? {}).find(([name]) => /^content-type$/i.test(name))?.[1];
  // The declared type is sent as written (the connector's own header, or its content type's media type); multipart's is the platform's.
  const declared = draft.headers.find(({ header }) => /^content-type$/i.test(header))?.value;
  const sent = declared ?? (draft.contentType === ContentType.NONE ? undefined : MEDIA_TYPES[draft.contentType]);
  if (contentType !== undefined && draft.contentType !== ContentType.MULTIPART_FORM_DATA && sent?.toLowerCase() !== contentType.toLowerCase())
    found.push('mediaType');
  const expectedType =
    contentType !== undefined
      ? matchMediaType(contentType).contentType
      : oracle.files || oracle.data !== undefined
        ? ContentType.MULTIPART_FORM_DATA
        : ContentType.NONE;
  if (expectedType !== draft.contentType) found.push('contentType');
  if (draft.contentType === ContentType.MULTIPART_FORM_DATA ? !sameParts(draft, oracle) : !sameBody(draft, oracle.data)) found.push('body');
  if (!sameAuth(draft, oracle)) found.push('auth');
  return found;
}

function withoutApiKey(url: string, draft: ConnectorDraft): string {
  if (draft.apiKeyIn !== 'QUERY') return url;
  return url
    .replace(new RegExp(`[?&]${draft.apiKeyName}=[^&#]*`), (match) => (match.startsWith('?') ? '?' : ''))
    .replace('?&', '?')
    .replace(/\?$/, '');
}

/** curlconverter gives JSON and form bodies parsed: compared as parsed, others as text. */
function sameBody(draft: ConnectorDraft, data: unknown): boolean {
  if (data === undefined) return draft.body === '';
  if (typeof data === 'string') return draft.body === data;
  if (draft.contentType === ContentType.APPLICATION_JSON) return JSON.stringify(JSON.parse(draft.body)) === JSON.stringify(data);
  const fields: Record<string, string | string[]> = {};
  for (const [name, value] of new URLSearchParams(draft.body)) {
    const known = fields[name];
    fields[name] = known === undefined ? value : [...(Array.isArray(known) ? known : [known]), value];
  }
  return JSON.stringify(fields) === JSON.stringify(data);
}

/** curlconverter gives a form's text parts as `data` and its files as `files` (name to path): compared with the parts. */
function sameParts(draft: ConnectorDraft, oracle: CurlconverterRequest): boolean {
  const parts = multipartPartsOf(draft.body);
  const texts = Object.fromEntries(parts.filter((part) => part.filename === undefined).map(({ name, value }) => [name, value]));
  const files = Object.fromEntries(parts.filter((part) => part.filename !== undefined).map(({ name, filename }) => [name, filename]));
  const oracleFiles = Object.fromEntries(Object.entries(oracle.files ?? {}).map(([name, path]) => [name, path.split('/').pop()]));
  return JSON.stringify(texts) === JSON.stringify(oracle.data ?? {}) && JSON.stringify(files) === JSON.stringify(oracleFiles);
}

function sameAuth(draft: ConnectorDraft, oracle: CurlconverterRequest): boolean {
  const [credential] = draft.credentials;
  const secret = credential?.variable !== undefined ? `$${credential.variable}` : credential?.value;
  const authorization = Object.entries(oracle.headers ?? {}).find(([name]) => /^authorization$/i.test(name))?.[1];
  if (authorization !== undefined) return draft.authType === 'AUTH_BEARER' ? authorization === `Bearer ${secret}` : authorization.endsWith(`${secret}`);
  if (oracle.auth) return draft.authType === 'AUTH_BASIC' && secret === Buffer.from(`${oracle.auth.user}:${oracle.auth.password}`).toString('base64');
  if (draft.authType === 'AUTH_API_KEY') return oracle.headers?.[draft.apiKeyName!] === secret || oracle.raw_url.includes(`${draft.apiKeyName}=${secret}`);
  return draft.authType === 'AUTH_NONE';
}

const FILE_NOT_READ = 'body: curlconverter keeps `@file` as the data text; an import reads no file and leaves it out (FILE_NOT_READ)';

/**
 * Every difference from curlconverter 4.12.0 where both import, explained (`field: why`). Only the first request of a
 * command is compared: curlconverter's JSON reads one.
 */
const EXPLAINED: Record<string, string[]> = {
  'curlconverter/bash_redirect.sh': [FILE_NOT_READ],
  'curlconverter/read_stdin.sh': [FILE_NOT_READ],
  'curlconverter/redirect_variable_data.sh': [FILE_NOT_READ],
  'issues/hoppscotch-3109-mailgun-get-urlencode.sh': [
    'url: curlconverter writes a space of -G --data-urlencode as +, curl (curl_easy_escape) and this importer as %20',
  ],
};

/** Commands one of the two refuses and the other reads, and why. */
const REFUSED_BY_ONE: Record<string, string> = {
  'curlconverter/multiple_urls.sh': 'this importer: curl itself refuses -T with -d ("You can only select one HTTP request method!")',
  'curlconverter/put_with_T_option.sh': 'this importer: curl itself refuses -T with -d',
  'curlconverter/pipelines.sh': 'this importer: `echo foo | curl` feeds curl input an import does not have',
  'curlconverter/strange_http_method.sh': 'this importer: a connector sends only GET POST PUT PATCH DELETE HEAD OPTIONS',
  'issues/kong-3805-output-and-broken-bearer.sh': 'this importer: the Bearer header holds a line break, which no header value may',
  'issues/n8n-13719-spaces-in-url.sh': 'this importer: the host holds spaces; curlconverter keeps the URL as written',
  'issues/n8n-5355-postman-basic.sh': 'this importer: the Basic token (redacted in the report) is not canonical Base64 of user:password',
};

describe('importCurl against curlconverter (the test oracle)', () => {
  const files = corpusFiles().sort();
  const readings = curlconverterReadings(files.map(source));

  it.each(files.map((file, index) => [file, readings[index]] as const))('%s', async (file, reading) => {
    const result = await outcome(file);
    const refusedByOne = result instanceof ImportSourceError !== 'error' in reading;
    expect(refusedByOne).toBe(file in REFUSED_BY_ONE);
    if (result instanceof ImportSourceError || 'error' in reading) return;
    const explained = (EXPLAINED[file] ?? []).map((explanation) => explanation.slice(0, explanation.indexOf(':')));
    expect(differences(result.connectors[0], reading.json)).toEqual(explained);
  });
});
